// `{{ name }}` templates for the file step: each placeholder is replaced by the text of
// vars[name], in one pass (an inserted value is never scanned for placeholders again). Only
// `{{ identifier }}` is a placeholder; other braces (e.g. Go's `{{ .Name }}`) are left as text.
// A value that is a Secret makes the whole rendered content a Secret, so it stays masked.
import type { OptionReader } from '../../runner/core/options.js';
import { isSecret, Secret } from '../../runner/core/secret.js';

export type TemplateValue = string | number | boolean | Secret;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Validates the `vars` option: a plain object of strings, finite numbers, booleans or secrets. */
export function readVars(r: OptionReader): Readonly<Record<string, TemplateValue>> {
  const v = r.opts.vars;
  if (v === undefined) return {};
  if (v === null || typeof v !== 'object' || Array.isArray(v) || isSecret(v))
    r.fail('vars', 'must be an object of name: value');
  const out: Record<string, TemplateValue> = {};
  for (const [k, value] of Object.entries(v)) {
    const ok =
      typeof value === 'string' ||
      typeof value === 'boolean' ||
      isSecret(value) ||
      (typeof value === 'number' && Number.isFinite(value));
    if (!ok)
      r.fail(
        `vars.${k}`,
        `must be a string, number, boolean or secret, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`,
      );
    out[k] = value as TemplateValue;
  }
  return Object.freeze(out);
}

/** Renders the template; a placeholder without a var is an option error naming it. */
export function renderTemplate(
  r: OptionReader,
  template: string,
  vars: Readonly<Record<string, TemplateValue>>,
): string | Secret {
  const secretNames: string[] = [];
  const text = template.replace(PLACEHOLDER, (_all, name: string) => {
    if (!Object.hasOwn(vars, name)) r.fail('vars', `has no value for {{ ${name} }}, which the template uses`);
    const value = vars[name]!;
    if (isSecret(value)) {
      secretNames.push(name);
      return value.reveal();
    }
    return String(value);
  });
  return secretNames.length === 0
    ? text
    : new Secret(text, `template with secret vars ${[...new Set(secretNames)].join(', ')}`);
}
