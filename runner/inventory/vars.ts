// Variable values as read from the inventory. Secrets never sit in the file: a value written as
// `{{ lookup('env', 'NAME') }}` becomes an EnvRef, resolved from the environment only when a run
// needs it, and a password written literally is refused.
import { isMap, isScalar, isSeq, visit, type Node } from 'yaml';
import { EnvRef } from './model.js';
import { isSecretName } from './secret-names.js';
import type { VarDef } from './graph.js';
import type { Origin, Reporter, Source } from './source.js';

/** yaml's limit on alias expansion in one value (its default), against alias bombs (README.md, Limits). */
const MAX_YAML_ALIAS_COUNT = 100;

/** Variables that hold a password: never accepted as literal text. */
export const PASSWORD_VARS: ReadonlySet<string> = new Set([
  'ansible_password',
  'ansible_ssh_pass',
  'ansible_ssh_password',
  'ansible_become_password',
  'ansible_become_pass',
]);

// `{{ lookup('env', 'NAME') }}`, single or double quotes, any spacing; `ansible.builtin.env` too.
const ENV_LOOKUP = /^\s*\{\{\s*lookup\s*\(\s*(['"])(?:ansible\.builtin\.)?env\1\s*,\s*(['"])([^'"]*)\2\s*\)\s*\}\}\s*$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The environment variable a whole-value `{{ lookup('env', 'NAME') }}` names, else null. */
export function envLookupName(value: string): string | null {
  return ENV_LOOKUP.exec(value)?.[3] ?? null;
}

/** Replaces env lookups by EnvRefs, at any depth; reports bad names and templates play won't render. */
export function convert(value: unknown, src: Reporter, origin: Origin): unknown {
  if (typeof value === 'string') {
    const name = envLookupName(value);
    if (name === null) {
      if (value.includes('{{')) {
        src.warn(
          origin,
          'play does not evaluate Jinja2 templates: this value is used as written ' +
            `(only a whole value of the form {{ lookup('env', 'NAME') }} is understood)`,
        );
      }
      return value;
    }
    if (!ENV_NAME.test(name)) {
      src.problem(
        origin,
        `'${name}' is not an environment variable name: expected letters, digits and underscores, not starting with a digit`,
      );
    }
    return new EnvRef(name);
  }
  if (Array.isArray(value)) return value.map((v) => convert(v, src, origin));
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), convert(v, src, origin)]));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, src, origin)]));
  }
  return value;
}

/** The JavaScript value of a variable's YAML node, with env lookups as EnvRefs. */
export function varValue(src: Source, node: Node | null | undefined, origin: Origin): unknown {
  if (!node) return null;
  let vaulted = false;
  visit(node, {
    Node: (_, n) => {
      if ('tag' in n && n.tag === '!vault') vaulted = true;
    },
  });
  if (vaulted) {
    src.problem(
      origin,
      'ansible-vault encrypted values are not supported: keep the secret in the environment ' +
        `(or .env) and write {{ lookup('env', 'SOME_VAR') }}`,
    );
    return null;
  }
  let value: unknown;
  try {
    value = isScalar(node) ? node.value : node.toJS(src.doc, { maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (e) {
    // yaml refuses a value whose aliases expand past maxAliasCount (a "billion laughs" bomb): an
    // attack rather than a typo, so the load stops here.
    if (!(e instanceof ReferenceError)) throw e;
    throw src.error(
      origin,
      `YAML aliases expand this value too far (aliases of aliases, more than ${MAX_YAML_ALIAS_COUNT} ` +
        'expansions): write the value out',
    );
  }
  return convert(value, src, origin);
}

/**
 * Sets one variable on a group or host, as ansible's set_variable does (a later definition of the
 * same name replaces the earlier one), after refusing literal secrets (secret-names.ts).
 */
export function defineVar(
  src: Reporter,
  vars: Map<string, VarDef>,
  name: string,
  value: unknown,
  origin: Origin,
): void {
  if (isSecretName(name) && value !== null && !(value instanceof EnvRef)) {
    src.problem(
      origin,
      `${name} is written as a literal value; passwords never go in the inventory: write ` +
        `${name}: "{{ lookup('env', 'SOME_VAR') }}" and put the value in the environment or in .env`,
    );
    return;
  }
  vars.set(name, { value, origin });
}

/** A YAML type name for messages: "a list", "a string ('x')", "a number (3)". */
export function describe(node: unknown): string {
  if (isSeq(node) || Array.isArray(node)) return 'a list';
  if (isMap(node)) return 'a mapping';
  if (isScalar(node)) return describe(node.value);
  if (node === null || node === undefined) return 'nothing';
  if (typeof node === 'string') return `a string ('${node.length > 40 ? node.slice(0, 40) + '...' : node}')`;
  if (typeof node === 'number' || typeof node === 'boolean') return `a ${typeof node} (${node})`;
  return `a ${typeof node}`;
}
