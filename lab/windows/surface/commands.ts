// Programs on the node's PATH, as Get-Command -CommandType Application and Start-Process find them
// (mock/Commands.psm1). The PATH is Windows Server 2019's default, plus C:\Program Files\Docker once
// DockerMsftProvider installed Docker (its Update-PathVar appends it to the machine PATH). A program
// is there if the model holds its file, or if it is one of the system programs Windows ships.
import { fileExists } from '../file-store.js';
import type { NodeState } from '../node-state.js';
import { baseName, filePath } from '../win-paths.js';
import { DOCKER_DIR } from './docker.js';
import { type Ops, str } from './types.js';

const SYSTEM32 = 'C:\\Windows\\system32';

/** What a fresh install has in these folders (the model's files hold everything else). */
const SHIPPED: Record<string, readonly string[]> = {
  'c:\\windows\\system32': [
    'cmd.exe',
    'dism.exe',
    'expand.exe',
    'hnsdiag.exe',
    'hostname.exe',
    'ipconfig.exe',
    'net.exe',
    'netsh.exe',
    'reg.exe',
    'route.exe',
    'sc.exe',
    'shutdown.exe',
    'taskkill.exe',
    'tasklist.exe',
    'w32tm.exe',
    'where.exe',
    'whoami.exe',
    'wusa.exe',
    'cscript.exe',
    'notepad.exe',
  ],
  'c:\\windows': ['explorer.exe', 'notepad.exe', 'regedit.exe'],
  'c:\\windows\\system32\\windowspowershell\\v1.0': ['powershell.exe'],
};

/** PATHEXT of Windows Server 2019. */
const PATHEXT = ['.COM', '.EXE', '.BAT', '.CMD', '.VBS', '.VBE', '.JS', '.JSE', '.WSF', '.WSH', '.MSC'];

export function pathDirectories(s: NodeState): string[] {
  const dirs = [
    SYSTEM32,
    'C:\\Windows',
    'C:\\Windows\\System32\\Wbem',
    'C:\\Windows\\System32\\WindowsPowerShell\\v1.0',
    'C:\\Windows\\System32\\OpenSSH',
  ];
  if (s.docker.install === 'installed') dirs.push(DOCKER_DIR);
  return dirs;
}

function present(s: NodeState, dir: string, leaf: string): boolean {
  return (SHIPPED[dir.toLowerCase()] ?? []).includes(leaf.toLowerCase()) || fileExists(s, `${dir}\\${leaf}`);
}

/** Every program the name resolves to, in PATH order (a name without extension tries PATHEXT). */
export function findApplications(s: NodeState, name: string): { name: string; path: string }[] {
  if (/[\\/]/.test(name)) {
    const p = filePath(name);
    return fileExists(s, p.display) || present(s, p.display.slice(0, p.display.lastIndexOf('\\')), baseName(p))
      ? [{ name: baseName(p), path: p.display }]
      : [];
  }
  const hasExtension = PATHEXT.some((e) => name.toUpperCase().endsWith(e));
  const leaves = hasExtension ? [name] : PATHEXT.map((e) => `${name}${e.toLowerCase()}`);
  const found: { name: string; path: string }[] = [];
  for (const dir of pathDirectories(s)) {
    for (const leaf of leaves) {
      if (present(s, dir, leaf)) found.push({ name: leaf, path: `${dir}\\${leaf}` });
    }
  }
  return found;
}

export const commandOps: Ops = {
  'Command.FindApplication': (node, a) => findApplications(node.state, str(a, 'name')),
};
