// Privilege escalation from Ansible's become variables, narrowed to what play does: sudo on Linux
// hosts (docs/architecture.md#become). What play cannot do yet (another method, custom flags, become
// on a Windows host) is a problem naming the variable: a run as the wrong user is never silent.
// The command's -b, --become-user and --become-method (connection-defaults.ts) apply where the host's
// variables say nothing, as in Ansible; -b does not reach a Windows host (load.ts warns once).
import type { ConnectionSettings } from './connection-defaults.js';
import type { VarDef } from './graph.js';
import type { BecomeSpec, OsFamily } from './model.js';
import type { Origin, Reporter } from './source.js';
import { pick } from './var-pick.js';
import { describe } from './vars.js';

// ansible.module_utils.parsing.convert_bool: the values Ansible reads as true or false.
const TRUE = new Set(['y', 'yes', 'on', '1', 'true', 't']);
const FALSE = new Set(['n', 'no', 'off', '0', 'false', 'f']);

/** Ansible's boolean(): true, false, or undefined when the value is neither. */
function ansibleBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value !== 'string') return undefined;
  const v = value.trim().toLowerCase();
  return TRUE.has(v) ? true : FALSE.has(v) ? false : undefined;
}

// A user name sudo -u accepts as one word (POSIX portable names, plus the #uid form).
const USER_NAME = /^(?:[A-Za-z0-9._][A-Za-z0-9._-]*\$?|#\d+)$/;

/**
 * The host's become settings, or undefined when it does not become; problems go to `src`. `defaults`:
 * the command's (-b, --become-user, --become-method), under the variables; `hostAt`: where the host is
 * defined, for a problem that comes from them.
 */
export function becomeSpec(
  src: Reporter,
  host: string,
  os: OsFamily,
  vars: ReadonlyMap<string, VarDef>,
  defaults: ConnectionSettings = {},
  hostAt: Origin = { path: '' },
): BecomeSpec | undefined {
  const flag = pick(vars, 'ansible_become');
  if (!flag)
    return defaults.become?.value && os !== 'windows' ? sudoSpec(src, host, vars, defaults, hostAt) : undefined;
  const on = ansibleBool(flag.value);
  if (on === undefined) {
    src.problem(flag.origin, `ansible_become must be a boolean (true/false, yes/no), got ${describe(flag.value)}`);
    return undefined;
  }
  if (!on) return undefined;
  if (os === 'windows') {
    src.problem(
      flag.origin,
      `host ${host}: ansible_become is not supported on a Windows host: play runs PowerShell as ansible_user ` +
        '(become_method runas is not supported yet); connect as a user with the rights the steps need',
    );
    return undefined;
  }
  return sudoSpec(src, host, vars, defaults, flag.origin);
}

/** The method (sudo only), flags (none) and user: the host's variables first, then the command's defaults. */
function sudoSpec(
  src: Reporter,
  host: string,
  vars: ReadonlyMap<string, VarDef>,
  defaults: ConnectionSettings,
  at: Origin,
): BecomeSpec | undefined {
  const method = pick(vars, 'ansible_become_method');
  const methodName = typeof method?.value === 'string' ? method.value.replace(/^ansible\.builtin\./, '') : 'sudo';
  if (method && methodName !== 'sudo') {
    src.problem(
      method.origin,
      `ansible_become_method: ${typeof method.value === 'string' ? method.value : describe(method.value)} is not supported yet: play becomes with sudo only`,
    );
  }
  const defaultMethod = defaults.becomeMethod;
  if (!method && defaultMethod && defaultMethod.value.replace(/^ansible\.builtin\./, '') !== 'sudo')
    src.problem(
      at,
      `host ${host}: become method ${defaultMethod.value} (${defaultMethod.origin}) is not supported yet: play becomes with sudo only`,
    );
  for (const name of ['ansible_become_flags', 'ansible_sudo_flags', 'ansible_become_exe', 'ansible_sudo_exe']) {
    const def = pick(vars, name);
    if (def)
      src.problem(
        def.origin,
        `${name} is not supported yet: play runs \`sudo -H -u USER\` (with -n, or -S and the password on stdin); remove it`,
      );
  }
  const userDef = pick(vars, 'ansible_become_user');
  const user = userDef === undefined ? (defaults.becomeUser?.value ?? 'root') : userDef.value;
  if (typeof user !== 'string' || !USER_NAME.test(user)) {
    if (userDef) src.problem(userDef.origin, `ansible_become_user must be a user name, got ${describe(user)}`);
    else src.problem(at, `host ${host}: ${defaults.becomeUser?.origin} ${describe(user)} is not a user name`);
    return undefined;
  }
  return { method: 'sudo', user };
}
