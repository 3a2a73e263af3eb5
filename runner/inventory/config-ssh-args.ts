// ansible.cfg's `[ssh_connection] ssh_args` and `ssh_common_args` (or ANSIBLE_SSH_ARGS,
// ANSIBLE_SSH_COMMON_ARGS) are, in Ansible, the defaults of the variables ansible_ssh_args and
// ansible_ssh_common_args: a host that sets the variable replaces the config's value, one that does not
// gets it. Here they become those variables where the host has none, so everything the inventory's ssh
// args do (jump hosts, known_hosts, -F, -o User/Port/IdentityFile, timeouts) the config's do too, under
// the host's own. Pure: vars in, vars out.
import type { Setting } from './connection-defaults.js';
import type { VarDef } from './graph.js';
import type { Origin } from './source.js';

export interface ConfigSshArgs {
  readonly sshArgs?: Setting<string>;
  readonly sshCommonArgs?: Setting<string>;
}

/** Where a config value was set, as an inventory origin: `/dir/ansible.cfg:7` (paths relative to its folder) or a variable. */
function originOf(setting: Setting<string>, key: string): Origin {
  const m = /^(.*):(\d+)$/.exec(setting.origin);
  if (m) return { file: m[1]!, line: Number(m[2]), path: `[ssh_connection] ${key}` };
  return { path: setting.origin };
}

/** `vars` with the config's ssh args as ansible_ssh_args / ansible_ssh_common_args where the host sets neither alias. */
export function withConfigSshArgs(
  vars: ReadonlyMap<string, VarDef>,
  config: ConfigSshArgs,
): ReadonlyMap<string, VarDef> {
  const added: [string, VarDef][] = [];
  for (const [name, key, setting] of [
    ['ansible_ssh_args', 'ssh_args', config.sshArgs],
    ['ansible_ssh_common_args', 'ssh_common_args', config.sshCommonArgs],
  ] as const) {
    const own = vars.get(name);
    if (setting && (own?.value === undefined || own.value === null))
      added.push([name, { value: setting.value, origin: originOf(setting, key) }]);
  }
  return added.length ? new Map([...vars, ...added]) : vars;
}
