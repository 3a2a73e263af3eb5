// The connection settings a command gives every host, and how they stack with the inventory's. As in
// Ansible, command-line values (-u, --private-key, -b, --become-user, -k, -K) are not variables: they
// sit under every inventory variable (ansible_user beats -u, ansible_become: false beats -b) and over
// ansible.cfg and ANSIBLE_* (runner/ansible-config/). Over ssh_config too: with -u (or remote_user)
// Ansible passes `-o User=` to ssh, which beats ssh_config's User; without either it passes none, and
// ssh_config's User applies. A key file from --private-key is offered before ssh_config's IdentityFiles,
// as ssh tries the `-o IdentityFile=` Ansible passes first. Pure: values in, values out.
import type { Secret } from '../core/secret.js';
import type { Setting } from '../core/setting.js';

export type { Setting };

/** One layer of connection settings: the host's variables, the command line's flags, or ansible.cfg's. */
export interface ConnectionSettings {
  readonly remoteUser?: Setting<string>;
  /** A path: absolute, or relative to where the layer resolves paths (the CLI resolves the flag's). */
  readonly privateKeyFile?: Setting<string>;
  readonly become?: Setting<boolean>;
  readonly becomeUser?: Setting<string>;
  readonly becomeMethod?: Setting<string>;
  /** The connection password (-k), a Secret: never in argv, an environment, a report or a message. */
  readonly password?: Setting<Secret>;
  /** The become password (-K). */
  readonly becomePassword?: Setting<Secret>;
  /** ansible.cfg's ssh_args / ssh_common_args: the defaults of ansible_ssh_args / ansible_ssh_common_args
   *  (config-ssh-args.ts), so what the inventory's would do, these do under the host's own. */
  readonly sshArgs?: Setting<string>;
  readonly sshCommonArgs?: Setting<string>;
}

/** What ansible.cfg and ANSIBLE_* give (runner/ansible-config/'s connectionSettings): no passwords there. */
export type ConfigConnectionSettings = Omit<ConnectionSettings, 'password' | 'becomePassword'>;

const FIELDS = [
  'remoteUser',
  'privateKeyFile',
  'become',
  'becomeUser',
  'becomeMethod',
  'password',
  'becomePassword',
  'sshArgs',
  'sshCommonArgs',
] as const satisfies readonly (keyof ConnectionSettings)[];

/** Field by field, the first layer that sets a field wins (layers highest first). */
export function mergeLayers(...layers: readonly ConnectionSettings[]): ConnectionSettings {
  const out: Record<string, Setting<unknown>> = {};
  for (const field of FIELDS) {
    const found = layers.find((l) => l[field] !== undefined)?.[field];
    if (found) out[field] = found;
  }
  return Object.freeze(out) as ConnectionSettings;
}

/**
 * The defaults a command gives every host: its flags over ansible.cfg's settings (`config`, the layer
 * under the flags; absent until runner/ansible-config/ is wired). Only the connection fields are taken
 * from `config`, whatever else it carries.
 */
export function connectionDefaults(
  flags: ConnectionSettings,
  config: ConfigConnectionSettings = {},
): ConnectionSettings {
  const { remoteUser, privateKeyFile, become, becomeUser, becomeMethod, sshArgs, sshCommonArgs } = config;
  const fromConfig = { remoteUser, privateKeyFile, become, becomeUser, becomeMethod, sshArgs, sshCommonArgs };
  return mergeLayers(flags, fromConfig);
}

/** The user to log in as: the host's setting or a default (`merged.remoteUser`), else ssh_config's User, else the
 *  current user. */
export function loginUser(
  merged: ConnectionSettings,
  sshConfigUser: Setting<string> | undefined,
  currentUser: string | undefined,
): Setting<string> | undefined {
  return (
    merged.remoteUser ??
    sshConfigUser ??
    (currentUser === undefined ? undefined : { value: currentUser, origin: 'the current user' })
  );
}

/**
 * The warning for a become default (-b) that Windows hosts do not take: play runs PowerShell as the
 * login user there (become.ts). A warning, not an error: an inventory of Linux and Windows hosts still
 * runs with -b, whichever hosts the run targets. Undefined when there is nothing to say.
 */
export function unbecomeWarning(
  hosts: readonly {
    readonly name: string;
    readonly vars: Readonly<Record<string, unknown>>;
    readonly connection: { readonly os: string };
  }[],
  defaults: ConnectionSettings | undefined,
): string | undefined {
  const become = defaults?.become;
  if (!become?.value) return undefined;
  const windows = hosts
    .filter((h) => h.connection.os === 'windows' && !('ansible_become' in h.vars))
    .map((h) => h.name);
  if (windows.length === 0) return undefined;
  const listed = windows.slice(0, 5).join(', ') + (windows.length > 5 ? ` and ${windows.length - 5} more` : '');
  return `${become.origin} does not apply to the Windows host${windows.length > 1 ? 's' : ''} ${listed}: play runs PowerShell there as ansible_user (become on Windows is not supported)`;
}
