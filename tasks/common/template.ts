// `{{ name }}` templates for the file steps: each placeholder is replaced by the text of
// vars[name], in one pass (an inserted value is never scanned for placeholders again). Only
// `{{ identifier }}` is a placeholder; other braces (e.g. Go's `{{ .Name }}`) are left as text.
// A value that is a Secret makes the whole rendered content a Secret, so it stays masked.
import { z } from 'zod';
import { isSecret, Secret } from '../../runner/core/secret.js';

export type TemplateValue = string | number | boolean | Secret;

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

function isTemplateValue(v: unknown): v is TemplateValue {
  return (
    typeof v === 'string' || typeof v === 'boolean' || isSecret(v) || (typeof v === 'number' && Number.isFinite(v))
  );
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v;
}

/** The `vars` option: a plain object of strings, finite numbers, booleans or secrets; frozen. */
export const templateVars = () =>
  z
    .record(
      z.string(),
      z.custom<TemplateValue>(isTemplateValue, {
        error: (iss) => `must be a string, number, boolean or secret, got ${typeName(iss.input)}`,
      }),
      { error: 'must be an object of name: value' },
    )
    .refine((v) => !isSecret(v), { error: 'must be an object of name: value' })
    .transform((v): Readonly<Record<string, TemplateValue>> => Object.freeze({ ...v }));

/** The first placeholder of the template that vars has no value for; undefined when there is none. */
export function missingVar(template: string, vars: Readonly<Record<string, TemplateValue>>): string | undefined {
  for (const m of template.matchAll(PLACEHOLDER)) if (!Object.hasOwn(vars, m[1]!)) return m[1];
  return undefined;
}

/** The message for a template that uses a var it was not given (option `vars`). */
export const missingVarMessage = (name: string) => `has no value for {{ ${name} }}, which the template uses`;

/** Renders the template (every placeholder must have its var: see missingVar). */
export function fillTemplate(template: string, vars: Readonly<Record<string, TemplateValue>>): string | Secret {
  const secretNames: string[] = [];
  const text = template.replace(PLACEHOLDER, (_all, name: string) => {
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
