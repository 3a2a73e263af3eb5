// Turning the inventory's EnvRefs into Secrets, just before a run needs them. A missing
// environment variable, or a value too short to be masked, is an error naming the host, the variable
// and the environment variable, so the fix is obvious; the value itself never appears in a message.
import { InventoryError } from '../core/errors.js';
import { isSecret, MIN_SECRET_LENGTH, Secret } from '../core/secret.js';
import { EnvRef, type Host, type ResolvedSecrets } from './model.js';

/** Where loadInventory recorded each host's inventory file, for error messages. */
const fileOf = new WeakMap<Host, string>();

export function rememberFile(host: Host, file: string): void {
  fileOf.set(host, file);
}

/**
 * The secret an environment variable holds, or why it cannot be one, as the end of a sentence that
 * names the variable: unset, empty, or too short to be masked in output (redact() skips such values).
 */
export function secretFromEnv(envVar: string, env: NodeJS.ProcessEnv): Secret | string {
  const value = env[envVar];
  if (value === undefined || value === '') {
    const state = value === undefined ? 'which is not set' : 'which is empty';
    return `needs environment variable ${envVar}, ${state}: export it or put it in .env`;
  }
  if (value.length < MIN_SECRET_LENGTH)
    return (
      `comes from environment variable ${envVar}, whose value is ${value.length} character${value.length === 1 ? '' : 's'} long: ` +
      `a secret needs at least ${MIN_SECRET_LENGTH}, or play could not mask it in output: set a longer one`
    );
  return new Secret(value, `env:${envVar}`);
}

function resolveRef(host: Host, variable: string, ref: EnvRef, env: NodeJS.ProcessEnv): Secret {
  const secret = secretFromEnv(ref.envVar, env);
  if (typeof secret === 'string')
    throw new InventoryError(fileOf.get(host) ?? 'inventory', '', `host ${host.name}: ${variable} ${secret}`);
  return secret;
}

/** The host's connection secrets (SSH password, become password) from the environment; a vault's or a prompt's as they are. */
export function resolveSecrets(host: Host, env: NodeJS.ProcessEnv = process.env): ResolvedSecrets {
  const out: ResolvedSecrets = {};
  const { password, becomePassword } = host.connection;
  const name = (candidates: string[]) => candidates.find((v) => host.vars[v] instanceof EnvRef) ?? candidates[0]!;
  if (isSecret(password)) out.password = password;
  else if (password)
    out.password = resolveRef(
      host,
      name(['ansible_ssh_password', 'ansible_ssh_pass', 'ansible_password']),
      password,
      env,
    );
  if (isSecret(becomePassword)) out.becomePassword = becomePassword;
  else if (becomePassword)
    out.becomePassword = resolveRef(
      host,
      name(['ansible_become_pass', 'ansible_become_password']),
      becomePassword,
      env,
    );
  return out;
}

/** True when a variable's value holds an EnvRef somewhere inside. */
export function holdsEnvRef(value: unknown): boolean {
  if (value instanceof EnvRef) return true;
  if (Array.isArray(value)) return value.some(holdsEnvRef);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.values(value).some(holdsEnvRef);
  return false;
}

/** The host's variables with every EnvRef, at any depth, resolved to a Secret. */
export function resolveVars(host: Host, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  return Object.fromEntries(Object.keys(host.vars).map((k) => [k, resolveVar(host, k, env)]));
}

/** One variable of the host, with every EnvRef in it resolved to a Secret. */
export function resolveVar(host: Host, name: string, env: NodeJS.ProcessEnv = process.env): unknown {
  const walk = (value: unknown, path: string): unknown => {
    if (value instanceof EnvRef) return resolveRef(host, path, value, env);
    if (Array.isArray(value)) return value.map((v, i) => walk(v, `${path}[${i}]`));
    if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, `${path}.${k}`)]));
    }
    return value;
  };
  return walk(host.vars[name], name);
}
