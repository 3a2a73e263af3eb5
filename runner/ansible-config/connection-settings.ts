// The connection defaults an ansible.cfg or ANSIBLE_* variables give, for the code that merges them
// with the command line's flags (-u, --private-key, -b, --become-user) and below the inventory's host
// vars (ansible_user, ansible_become, ... win, as in Ansible). Only what the user set is returned: a
// setting at play's default is absent, so the merge never mistakes a default for a choice.
import { InputError } from '../core/errors.js';
import { sshFlagValues } from '../inventory/jump-args.js';
import type { AnsibleConfig, Setting } from './settings.js';

export interface ConnectionSettings {
  readonly remoteUser?: Setting<string>;
  readonly privateKeyFile?: Setting<string>;
  readonly become?: Setting<boolean>;
  readonly becomeUser?: Setting<string>;
  readonly becomeMethod?: Setting<string>;
  /** As the inventory's ansible_ssh_args / ansible_ssh_common_args would be (ssh's words, -o options). */
  readonly sshArgs?: Setting<string>;
  readonly sshCommonArgs?: Setting<string>;
  /** false: unknown host keys are recorded (accept-new); a changed key is still refused. */
  readonly hostKeyChecking?: Setting<boolean>;
}

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
