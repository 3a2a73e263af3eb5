// `-e key=value` (a string) or `-e '{"key": 1}'` (JSON), like ansible-playbook's --extra-vars.
// Extra vars take precedence over every inventory variable. A secret is never a value on the command
// line (ps and shell history show it, and a rolling run's journal records -e to resume with it): a
// variable whose name says it holds one (secret-names.ts, the inventory's rule) is taken only as
// `{{ lookup('env', 'NAME') }}`, which becomes a Secret read from the environment or .env, as in an inventory.
import { InputError, UsageError } from '../core/errors.js';
import { isSecret, type Secret } from '../core/secret.js';
import { envVarFor, isSecretName } from '../inventory/secret-names.js';
import { secretFromEnv } from '../inventory/secrets.js';
import { envLookupName } from '../inventory/vars.js';

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

export function parseExtraVars(
  items: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const item of items) {
    if (item.trimStart().startsWith('{')) {
      Object.assign(vars, parseJsonItem(item, env));
      continue;
    }
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`-e ${item}: expected key=value or a JSON object`);
    const key = item.slice(0, eq);
    if (!VAR_NAME.test(key)) throw new UsageError(`-e ${key}=...: '${key}' is not a valid variable name`);
    const value = lookedUp(item.slice(eq + 1), key, env);
    if (isSecretName(key) && !isSecret(value)) throw secretRefused(key, key);
    vars[key] = value;
  }
  return vars;
}
