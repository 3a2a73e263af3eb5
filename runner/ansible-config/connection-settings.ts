// The connection defaults an ansible.cfg or ANSIBLE_* variables give, for the code that merges them
// with the command line's flags (-u, --private-key, -b, --become-user) and below the inventory's host
// vars (ansible_user, ansible_become, ... win, as in Ansible). Only what the user set is returned: a
// setting at play's default is absent, so the merge never mistakes a default for a choice.
import { InputError } from '../core/errors.js';
import { sshFlagValues } from '../inventory/jump-args.js';
import { shellWords } from '../inventory/ssh-words.js';
import type { ConfigConnectionSettings } from '../inventory/connection-defaults.js';
import type { AnsibleConfig, Setting } from './settings.js';

/** A connection layer as runner/inventory/connection-defaults.ts merges it (no passwords in a config file),
 *  and whether unknown host keys are checked. */
export type ConnectionSettings = ConfigConnectionSettings & {
  /** false: unknown host keys are recorded (accept-new); a changed key is still refused. */
  readonly hostKeyChecking?: Setting<boolean>;
};

const set = <T>(s: Setting<T> | undefined): Setting<T> | undefined => (s && s.origin !== 'default' ? s : undefined);

/** `-o StrictHostKeyChecking=...` in ssh args: the first one, as ssh takes it. */
function strictHostKeyChecking(args: Setting<string>, name: string): Setting<boolean> | undefined {
  let options: string[];
  try {
    options = sshFlagValues(args.value, 'o');
  } catch (e) {
    throw new InputError(`${args.origin}: ${name}: ${(e as Error).message}`);
  }
  for (const o of options) {
    const m = /^\s*stricthostkeychecking\s*(?:=\s*|\s+)(\S+)/i.exec(o);
    if (!m) continue;
    const v = m[1]!.toLowerCase();
    return { value: !['no', 'off', 'accept-new'].includes(v), origin: args.origin };
  }
  return undefined;
}

// What play applies of ssh args as the inventory's are applied (runner/inventory/ssh-arg-options.ts,
// jump-args.ts, connection.ts), and options that change nothing for play's one connection per host
// (Ansible's default ssh_args among them).
const APPLIED_OPTIONS = new Set([
  'user',
  'port',
  'identityfile',
  'userknownhostsfile',
  'connecttimeout',
  'serveraliveinterval',
  'proxyjump',
  'proxycommand',
  'stricthostkeychecking',
  'controlmaster',
  'controlpersist',
  'controlpath',
  'compression',
]);
const APPLIED_FLAGS = new Set(['-l', '-p', '-i', '-J', '-F', '-C']);
const WITH_VALUE = new Set(['-l', '-p', '-i', '-J', '-F', '-o']);

/** The words of ssh args play does not apply (an `-o` option with its value), to be said, never dropped in silence. */
export function sshWordsNotApplied(args: string): string[] {
  const words = shellWords(args);
  const left: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const flag = w.slice(0, 2);
    const value = WITH_VALUE.has(flag) ? (w.length > 2 ? w.slice(2) : words[++i]) : undefined;
    if (flag === '-o' && value !== undefined && APPLIED_OPTIONS.has(value.split(/[=\s]/)[0]!.toLowerCase())) continue;
    if (APPLIED_FLAGS.has(flag) && (w.length === 2 || WITH_VALUE.has(flag))) continue;
    left.push(value === undefined ? w : `${w.length > 2 ? w : `${w} ${value}`}`);
  }
  return left;
}

/** The connection defaults of `config` that the user set, each with its origin (an ANSIBLE_* name or file:line). */
export function connectionSettings(config: AnsibleConfig): ConnectionSettings {
  const s = config.settings;
  const sshArgs = set(s.ssh_args);
  const sshCommonArgs = set(s.ssh_common_args);
  const hostKeyChecking =
    (sshArgs && strictHostKeyChecking(sshArgs, 'ssh_args')) ??
    (sshCommonArgs && strictHostKeyChecking(sshCommonArgs, 'ssh_common_args')) ??
    set(s.host_key_checking);
  const out: Record<string, Setting<unknown> | undefined> = {
    remoteUser: set(s.remote_user),
    privateKeyFile: set(s.private_key_file),
    become: set(s.become),
    becomeUser: set(s.become_user),
    becomeMethod: set(s.become_method),
    sshArgs,
    sshCommonArgs,
    hostKeyChecking,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as ConnectionSettings;
}
