// Which ansible.cfg is in effect, found as Ansible finds it (ansible/config/manager.py
// find_ini_config_file): $ANSIBLE_CONFIG (a directory: its ansible.cfg), ./ansible.cfg unless the
// working directory is world-writable (then skipped, with a warning: anyone could plant one there),
// ~/.ansible.cfg, /etc/ansible/ansible.cfg; the first that exists and can be read wins, whole (no
// merging of files).
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { isAbsolute, join, normalize } from 'node:path';

export interface Located {
  readonly path: string | null;
  readonly notes: readonly string[];
}

const readable = (path: string): boolean => {
  try {
    accessSync(path, constants.R_OK);
    return existsSync(path);
  } catch {
    return false;
  }
};

function fromEnv(env: NodeJS.ProcessEnv, cwd: string, home: string): string | undefined {
  const given = env.ANSIBLE_CONFIG;
  if (given === undefined) return undefined;
  const expanded = given === '~' || given.startsWith('~/') ? home + given.slice(1) : given;
  const path = normalize(isAbsolute(expanded) ? expanded : join(cwd, expanded));
  try {
    if (statSync(path).isDirectory()) return join(path, 'ansible.cfg');
  } catch {
    /* a missing file: the next candidate is tried, as Ansible does */
  }
  return path;
}

/**
 * Every path whose change could change which ansible.cfg locateAnsibleConfig finds, or what it reads:
 * $ANSIBLE_CONFIG's file, the working directory (its mode decides whether its file counts), and each
 * candidate file. For a caller that reuses a load while none of them changed.
 */
export function ansibleConfigInputs(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  home: string = env.HOME ?? '',
): string[] {
  const envPath = fromEnv(env, cwd, home);
  return [
    ...(envPath ? [envPath] : []),
    cwd,
    join(cwd, 'ansible.cfg'),
    ...(home ? [join(home, '.ansible.cfg')] : []),
    '/etc/ansible/ansible.cfg',
  ];
}

export function locateAnsibleConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
  home: string = env.HOME ?? '',
): Located {
  const candidates: string[] = [];
  const envPath = fromEnv(env, cwd, home);
  if (envPath) candidates.push(envPath);
  const here = join(cwd, 'ansible.cfg');
  let skippedHere = false;
  try {
    if (statSync(cwd).mode & 0o002) skippedHere = existsSync(here);
    else candidates.push(here);
  } catch {
    /* an unreadable working directory is no source, as for Ansible */
  }
  if (home) candidates.push(join(home, '.ansible.cfg'));
  candidates.push('/etc/ansible/ansible.cfg');
  const path = candidates.find(readable) ?? null;
  const notes =
    skippedHere && path !== envPath
      ? [
          `${here} is ignored: the directory ${cwd} is world-writable (anyone could put an ansible.cfg there; Ansible ignores it too). ` +
            `Use ANSIBLE_CONFIG=${here} to read it anyway, or chmod o-w ${cwd}`,
        ]
      : [];
  return { path, notes };
}
