// What an ansible.cfg (or ANSIBLE_*) changes in a run that play's own flags leave unset: forks, the SSH
// connection timeout, and host key checking. Ansible's `timeout` is its SSH connection timeout (10 s by
// default), so it is play's connection timeout too, never the per-step --timeout (a 30 s step limit
// would cut a Windows hotfix short). host_key_checking=False never means "accept any key": play records
// unknown keys (accept-new) and still refuses a changed one, and says so once.
import type { PoolOptions } from '../transport/pool.js';
import { connectionSettings, sshWordsNotApplied } from './connection-settings.js';
import { loadAnsibleConfig, showConfigWarnings } from './load.js';
import type { AnsibleConfig } from './settings.js';

/** --forks when given, else the config's (ANSIBLE_FORKS, then ansible.cfg), else play's 20. */
export function configuredForks(flag: number | undefined, config: () => AnsibleConfig = loadAnsibleConfig): number {
  return flag ?? config().settings.forks.value;
}

export interface PoolDefaults {
  readonly acceptNew: boolean;
  readonly connectTimeoutMs?: number;
  readonly warnings: readonly string[];
}

/** ssh_args / ssh_common_args words play does not apply to hosts (yet): said, never dropped in silence. */
function unappliedSshArgs(config: AnsibleConfig): string[] {
  const c = connectionSettings(config);
  const found: string[] = [];
  for (const [name, s] of [['ssh_args', c.sshArgs] as const, ['ssh_common_args', c.sshCommonArgs] as const]) {
    if (!s) continue;
    const words = sshWordsNotApplied(s.value);
    if (words.length)
      found.push(
        `${name} (${s.origin}): play does not apply ${words.join(' ')} to hosts (of ssh's options it applies User, Port, IdentityFile, UserKnownHostsFile, ConnectTimeout, ServerAliveInterval, ProxyJump and ProxyCommand)`,
      );
  }
  return found;
}

/** The pool options the config sets (pure): a timeout only when set, so ssh_config's ConnectTimeout still applies otherwise. */
export function poolDefaults(acceptNewFlag: boolean, config: AnsibleConfig): PoolDefaults {
  const checking = connectionSettings(config).hostKeyChecking;
  const timeout = config.settings.timeout;
  const acceptNew = acceptNewFlag || checking?.value === false;
  const warnings = [
    ...(!acceptNewFlag && checking?.value === false
      ? [
          `host key checking off (${checking.origin}): play never accepts a changed host key; it records unknown ones (accept-new)`,
        ]
      : []),
    ...unappliedSshArgs(config),
  ];
  return {
    acceptNew,
    ...(timeout.origin !== 'default' ? { connectTimeoutMs: timeout.value * 1000 } : {}),
    warnings,
  };
}

/** The ConnectionPool options of a command's run, with the config's warnings shown once on `err`. */
export function configuredPoolOptions(
  acceptNewFlag: boolean,
  err: NodeJS.WritableStream,
): Pick<PoolOptions, 'acceptNew' | 'connectTimeoutMs'> {
  const config = loadAnsibleConfig();
  const { warnings, ...options } = poolDefaults(acceptNewFlag, config);
  showConfigWarnings({ ...config, warnings: [...config.warnings, ...warnings] }, err);
  return options;
}
