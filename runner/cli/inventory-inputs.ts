// Everything an inventory's load reads, as paths to watch (core/input-snapshot.ts): the ansible.cfg
// that may name it, the lab's files (an inventory named by nothing is the lab's, and the lab's env
// file fills its secrets), each source (a directory walked whole; a file with the group_vars and
// host_vars beside it), and the ssh_config files and Include directories its hosts were looked up
// through. A schedule reloads its inventory only when one of them changed.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { ansibleConfigInputs } from '../ansible-config/locate.js';
import type { InputRoot } from '../core/input-snapshot.js';
import { isHostList } from '../inventory/sources.js';
import type { SshConfig } from '../ssh-config/config.js';
import { labStateDir, labStateFiles } from './lab-state-dir.js';

export function inventoryInputs(sourcePaths: readonly string[], sshConfig: SshConfig): InputRoot[] {
  const lab = labStateFiles(labStateDir());
  const file = (path: string): InputRoot => ({ path, walk: false });
  const tree = (path: string): InputRoot => ({ path, walk: true });
  const sources = sourcePaths
    .filter((p) => !isHostList(p))
    .flatMap((p) =>
      isDirectory(p) ? [tree(p)] : [file(p), tree(join(dirname(p), 'group_vars')), tree(join(dirname(p), 'host_vars'))],
    );
  return [
    ...ansibleConfigInputs(process.env, process.cwd(), process.env.HOME || homedir()).map(file),
    ...[lab.state, lab.inventory, lab.env, lab.legacyWindowsEnv].map(file),
    ...sources,
    ...sshConfig.inputs().map(file),
  ];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
