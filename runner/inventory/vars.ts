// Variable values as read from the inventory. Secrets never sit in the file in clear: a value written
// as `{{ lookup('env', 'NAME') }}` becomes an EnvRef, resolved from the environment only when a run
// needs it; an ansible-vault value (`!vault`, or any value of a vault-encrypted file) becomes a Secret
// when the file is read; a password written literally is refused.
import { isCollection, isMap, isScalar, isSeq, visit, type Node } from 'yaml';
import { isSecret, MIN_SECRET_LENGTH, Secret } from '../core/secret.js';
import { VaultText } from '../vault/format.js';
import { VaultError, VaultKeyring } from '../vault/keyring.js';
import { EnvRef } from './model.js';
import { isSecretName } from './secret-names.js';
import type { VarDef } from './graph.js';
import { joinPath, type Origin, type Reporter, type Source } from './source.js';

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

/** A `!vault` value, decrypted, as a Secret; null after reporting why it cannot be. */
function decryptValue(value: VaultText, src: Reporter, origin: Origin): Secret | null {
  let plain: string;
  try {
    plain = (src.vault ?? new VaultKeyring()).decrypt(value.text).toString('utf8');
  } catch (e) {
    if (!(e instanceof VaultError)) throw e;
    src.problem(origin, e.sentence('this !vault value is'));
    return null;
  }
  if (plain.length < MIN_SECRET_LENGTH) {
    src.problem(origin, `this !vault value is ${tooShort(plain)}`);
    return null;
  }
  return new Secret(plain, `vault:${origin.file ?? 'inventory'}`);
}

const tooShort = (plain: string) =>
  `${plain.length} character${plain.length === 1 ? '' : 's'} long: a secret needs at least ${MIN_SECRET_LENGTH}, ` +
  'or play could not mask it in output';

/**
 * Replaces env lookups by EnvRefs and `!vault` values by Secrets, at any depth; reports bad names and
 * templates play won't render.
 */
export function convert(value: unknown, src: Reporter, origin: Origin): unknown {
  if (value instanceof VaultText) return decryptValue(value, src, origin);
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
  // Inside a value, problems name the entry: `db.password`, `peers[1]`.
  const at = (key: string | number) => ({
    ...origin,
    path: typeof key === 'number' ? `${origin.path}[${key}]` : joinPath(origin.path, key),
  });
  if (Array.isArray(value)) return value.map((v, i) => convert(v, src, at(i)));
  if (value instanceof Map)
    return Object.fromEntries([...value].map(([k, v]) => [String(k), convert(v, src, at(String(k)))]));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, src, at(k))]));
  }
  return value;
}

/**
 * Settings play needs in clear: Ansible's connection variables (ansible_host, ansible_user, ...) and
 * play's own, and `os`. Play prints them in its own messages (a host's address, port and user in every
 * connection error), so a vault could not keep them masked; passwords among them stay secrets.
 */
function isSetting(name: string): boolean {
  return (/^(?:ansible|play)_/.test(name) || name === 'os') && !isSecretName(name);
}

/**
 * A variable of a vault-encrypted file as play keeps it: its structure (mappings, lists, numbers,
 * booleans) as written, every string in it a Secret, so that nothing the file held in text prints in
 * clear; under a secret's name a number is a Secret too. Connection settings stay as written.
 */
function fromVaultFile(src: Reporter, name: string, value: unknown, origin: Origin): unknown {
  if (isSetting(name)) return value;
  const source = `vault:${origin.file ?? 'inventory'}`;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'number' && isSecretName(name)) v = String(v);
    if (typeof v === 'string') {
      if (v === '') return v;
      if (v.length < MIN_SECRET_LENGTH) {
        src.problem(
          origin,
          `${name} comes from a vault-encrypted file, whose text play keeps as secrets, and is ${tooShort(v)}: ` +
            'move it to a plain file',
        );
        return null;
      }
      return new Secret(v, source);
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value);
}

function holdsSecret(value: unknown): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (value && typeof value === 'object') return Object.values(value).some(holdsSecret);
  return false;
}

/** The JavaScript value of a variable's YAML node, with env lookups as EnvRefs. */
export function varValue(src: Source, node: Node | null | undefined, origin: Origin): unknown {
  if (!node) return null;
  let vaultCollection = false;
  visit(node, {
    Node: (_, n) => {
      if (isCollection(n) && n.tag === '!vault') vaultCollection = true;
    },
  });
  if (vaultCollection) {
    src.problem(
      origin,
      '!vault tags a mapping or a list here: it takes the text `ansible-vault encrypt_string` prints, a scalar',
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
  if (src.fromVault) value = fromVaultFile(src, name, value, origin);
  // A connection password is one text: a Secret (a vault's) or an env lookup, never one nested in a structure.
  if (PASSWORD_VARS.has(name) && !isSecret(value) && holdsSecret(value)) {
    src.problem(origin, `${name} must be one password (a !vault value or an env lookup), got ${describe(value)}`);
    return;
  }
  if (isSecretName(name) && value !== null && !(value instanceof EnvRef) && !isSecret(value)) {
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
  if (isSecret(node)) return 'a secret';
  if (node instanceof VaultText) return 'a !vault value';
  if (isSeq(node) || Array.isArray(node)) return 'a list';
  if (isMap(node)) return 'a mapping';
  if (isScalar(node)) return describe(node.value);
  if (node === null || node === undefined) return 'nothing';
  if (typeof node === 'string') return `a string ('${node.length > 40 ? node.slice(0, 40) + '...' : node}')`;
  if (typeof node === 'number' || typeof node === 'boolean') return `a ${typeof node} (${node})`;
  return `a ${typeof node}`;
}
