// Throwaway network namespaces for tests that run keepalived for real (root only). Each has an
// `eth1` with 198.18.5.1/24 whose veth peer `eth1p` is in the same namespace (this kernel has no
// dummy driver), so nothing it sends can leave it. The teardown kills what runs inside (only our
// own processes live there) and deletes the namespace, also when the test failed.
import type { ExecutionContext } from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export const NS_ADDRESS = '198.18.5.1';
export const canNetns =
  process.getuid?.() === 0 &&
  spawnSync('ip', ['netns', 'list']).status === 0 &&
  spawnSync('which', ['keepalived', 'setsid']).status === 0;

function ip(...args: string[]): void {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

export function deleteNetns(name: string): void {
  const pids = spawnSync('ip', ['netns', 'pids', name], { encoding: 'utf8' })
    .stdout.split(/\s+/)
    .filter((p) => /^\d+$/.test(p));
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  spawnSync('ip', ['netns', 'del', name]);
}

export function makeNetns(t: ExecutionContext): string {
  const name = `play-t-${randomBytes(4).toString('hex')}`;
  t.teardown(() => deleteNetns(name));
  ip('netns', 'add', name);
  ip('-n', name, 'link', 'add', 'eth1', 'type', 'veth', 'peer', 'name', 'eth1p');
  ip('-n', name, 'addr', 'add', `${NS_ADDRESS}/24`, 'dev', 'eth1');
  for (const dev of ['lo', 'eth1p', 'eth1']) ip('-n', name, 'link', 'set', dev, 'up');
  return name;
}

/** The network namespace of a process, as /proc shows it (net:[4026...]). */
export function netnsOf(pid: number): string {
  return execFileSync('readlink', [`/proc/${pid}/ns/net`], { encoding: 'utf8' }).trim();
}

export function netnsInode(name: string): string {
  return execFileSync('ip', ['netns', 'exec', name, 'readlink', '/proc/self/ns/net'], { encoding: 'utf8' }).trim();
}
