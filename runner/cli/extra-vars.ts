// -e, like ansible-playbook's --extra-vars (utils/vars.py: load_extra_vars): each -e is `@FILE` (a YAML
// or JSON file of variables, vault-encrypted or with `!vault` values), a JSON object, or key=value text
// split as ansible splits it (ansible-kv.ts: `-e 'a=1 b="x y"'` is two variables). Later -e replace
// earlier ones key by key, and extra vars take precedence over every inventory variable. A secret is
// never a value on the command line (ps and shell history show it, and a rolling run's journal records
// -e to resume with it): a variable whose name says it holds one (secret-names.ts, the inventory's rule)
// is taken only as `{{ lookup('env', 'NAME') }}`, which becomes a Secret read from the environment or
// .env, as in an inventory, or from a vault (already a Secret). A file is read as a group_vars file is:
// a literal secret in it is refused the same way.
import { resolve } from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import { inputPathKind } from '../core/read-input-file.js';
import { isSecret, type Secret } from '../core/secret.js';
import type { VarDef } from '../inventory/graph.js';
import { EnvRef } from '../inventory/model.js';
import { envVarFor, isSecretName } from '../inventory/secret-names.js';
import { secretFromEnv } from '../inventory/secrets.js';
import { Problems } from '../inventory/source.js';
import { loadVarsFile } from '../inventory/vars-files.js';
import { envLookupName } from '../inventory/vars.js';
import type { VaultKeyring } from '../vault/keyring.js';
import { parseKeyValues } from './ansible-kv.js';

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function secretRefused(path: string, name: string): UsageError {
  const lookup = `{{ lookup('env', '${envVarFor(name)}') }}`;
  const fix = path === name ? `-e "${name}=${lookup}"` : `its value as "${lookup}"`;
  return new UsageError(
    `-e ${path}: its name says it holds a secret, and a value on the command line shows in ps, shell history and ` +
      `a rolling run's journal: write ${fix} and put the value in the environment or in .env`,
  );
}

/** A whole-value env lookup as a Secret from `env`; any other string as it is. */
function lookedUp(value: string, path: string, env: NodeJS.ProcessEnv): string | Secret {
  const envVar = envLookupName(value);
  if (envVar === null) return value;
  if (!VAR_NAME.test(envVar)) throw new UsageError(`-e ${path}: '${envVar}' is not an environment variable name`);
  const secret = secretFromEnv(envVar, env);
  if (typeof secret === 'string') throw new InputError(`-e ${path} ${secret}`);
  return secret;
}

/** A JSON value with env lookups made Secrets, at any depth; a secret-named key with a literal is refused. */
function fromJson(value: unknown, path: string, env: NodeJS.ProcessEnv): unknown {
  if (typeof value === 'string') return lookedUp(value, path, env);
  if (Array.isArray(value)) return value.map((v, i) => fromJson(v, `${path}[${i}]`, env));
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([name, v]) => {
    const at = path ? `${path}.${name}` : name;
    const converted = fromJson(v, at, env);
    if (isSecretName(name) && converted !== null && !isSecret(converted)) throw secretRefused(at, name);
    return [name, converted];
  });
  return Object.fromEntries(entries);
}

function parseJsonItem(item: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(item);
  } catch (e) {
    // The text is not echoed when it may hold a secret value.
    const secretKey = [...item.matchAll(/"([^"\\]*)"\s*:/g)].map((m) => m[1]!).find(isSecretName);
    const shown = secretKey === undefined ? ` ${item}` : ` (a JSON object naming ${secretKey}, not shown)`;
    throw new UsageError(`-e${shown}: not valid JSON: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new UsageError(`-e ${item}: a JSON value must be an object of variables, such as {"key": 1}`);
  }
  return fromJson(parsed, '', env) as Record<string, unknown>;
}

/** `-e @FILE`: its variables, env lookups made Secrets; its problems are the file's (exit 65). */
function parseFileItem(item: string, env: NodeJS.ProcessEnv, vault?: VaultKeyring): Record<string, unknown> {
  const file = resolve(item.slice(1));
  const kind = inputPathKind(file);
  if (kind === 'missing') throw new UsageError(`-e ${item}: no such file`);
  if (kind === 'directory')
    throw new UsageError(`-e ${item}: is a directory, expected a YAML or JSON file of variables`);
  const report = new Problems(file, vault);
  const defs = new Map<string, VarDef>();
  const read = loadVarsFile(file, defs, report);
  report.throwIfProblems();
  if (!read) throw new InputError(`${file}: is empty: -e @FILE takes a mapping of variables`);
  const resolveRefs = (value: unknown, path: string): unknown => {
    if (value instanceof EnvRef) {
      const secret = secretFromEnv(value.envVar, env);
      if (typeof secret === 'string') throw new InputError(`-e ${item}: ${path} ${secret}`);
      return secret;
    }
    if (Array.isArray(value)) return value.map((v, i) => resolveRefs(v, `${path}[${i}]`));
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, `${path}.${k}`)]));
    return value;
  };
  return Object.fromEntries([...defs].map(([name, def]) => [name, resolveRefs(def.value, name)]));
}

/** `-e 'a=1 b=2'`: strings, env lookups made Secrets; a secret-named key with a literal is refused. */
function parseKeyValueItem(item: string, env: NodeJS.ProcessEnv): Record<string, unknown> {
  const { vars, bare } = parseKeyValues(item, item);
  const out: Record<string, unknown> = {};
  // Secrets are checked first: the messages below echo words of the text.
  for (const [key, text] of Object.entries(vars)) {
    const value = VAR_NAME.test(key) ? lookedUp(text, key, env) : text;
    if (isSecretName(key) && !isSecret(value)) throw secretRefused(key, key);
    out[key] = value;
  }
  if (bare.length)
    throw new UsageError(
      `-e ${bare[0]}: expected key=value (or @FILE, or a JSON object); a value with spaces is quoted: key='a b'`,
    );
  const bad = Object.keys(out).find((k) => !VAR_NAME.test(k));
  if (bad !== undefined) throw new UsageError(`-e ${bad}=...: '${bad}' is not a valid variable name`);
  return out;
}

/**
 * The variables of every -e, in order (a later one replaces an earlier one's keys). `vault`: the
 * passwords for `-e @FILE` files that are vault-encrypted or hold `!vault` values.
 */
export function parseExtraVars(
  items: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  vault?: VaultKeyring,
): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const item of items) {
    if (!item) continue;
    if (item.startsWith('@')) Object.assign(vars, parseFileItem(item, env, vault));
    else if (item.startsWith('/') || item.startsWith('.'))
      throw new UsageError(`-e ${item}: a file of variables is given as -e @${item}`);
    else if (item.trimStart().startsWith('{')) Object.assign(vars, parseJsonItem(item, env));
    else if (item.startsWith('['))
      throw new UsageError(`-e ${item}: a list is not a set of variables: write {"key": ...}`);
    else Object.assign(vars, parseKeyValueItem(item, env));
  }
  return vars;
}
