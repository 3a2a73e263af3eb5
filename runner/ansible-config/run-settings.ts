// What an ansible.cfg (or ANSIBLE_*) changes in a run that play's own flags leave unset: forks, the SSH
// connection timeout, and host key checking. Ansible's `timeout` is its SSH connection timeout (10 s by
// default), so it is play's connection timeout too, never the per-step --timeout (a 30 s step limit
// would cut a Windows hotfix short). host_key_checking=False never means "accept any key": play records
// unknown keys (accept-new) and still refuses a changed one, and says so once.
import { shellWords } from '../inventory/ssh-words.js';
import type { PoolOptions } from '../transport/pool.js';
import { connectionSettings } from './connection-settings.js';
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

// ssh options that change nothing play's one connection per host cares about (Ansible's default ssh_args among them).
const PASSED_OVER = new Set(['controlmaster', 'controlpersist', 'controlpath', 'compression', 'stricthostkeychecking']);

/** ssh_args / ssh_common_args words play does not apply to hosts (yet): said, never dropped in silence. */
function unappliedSshArgs(config: AnsibleConfig): string[] {
  const c = connectionSettings(config);
  const found: string[] = [];
  for (const [name, s] of [['ssh_args', c.sshArgs] as const, ['ssh_common_args', c.sshCommonArgs] as const]) {
    if (!s) continue;
    const words = shellWords(s.value).filter((w, i, all) => {
      if (w === '-C' || w === '-o') return false;
      return !(all[i - 1] === '-o' && PASSED_OVER.has(w.split(/[=\s]/)[0]!.toLowerCase()));
    });
    if (words.length)
      found.push(
        `${name} (${s.origin}): play does not apply ${words.join(' ')} to hosts; set ansible_${name} in the inventory (group_vars/all) instead`,
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
