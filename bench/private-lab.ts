// A lab of the bench's own, apart from the shared one other people's tests use: the program re-runs
// itself under `unshare --mount --net` (as test/lab/sandbox.test.ts does), where a network namespace
// of its own holds the bridges, and tmpfs over /run/netns, /run/play-lab and /etc/netns (with an
// overlay over /etc) make namespace names, the lock and per-host /etc private. linux1 there is another
// namespace than the shared lab's linux1, so bringing up and tearing down thousands of hosts touches
// none of the shared lab's hosts.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';

const RUN_DIR = '/run/play-lab';
const OUTER_ENV = 'PLAY_LAB_OUTER_NS';

const namespaceInodes = () => ['mnt', 'net'].map((kind) => String(statSync(`/proc/self/ns/${kind}`).ino));

/** True inside the private lab: other mount and network namespaces than the process that started it. */
export function inPrivateLab(): boolean {
  const outer = process.env[OUTER_ENV]?.split(':');
  const own = namespaceInodes();
  return outer !== undefined && outer.length === 2 && outer.every((ino, i) => ino !== own[i]);
}

/** Runs this program again inside the private lab, with `labDir` as its lab dir; its exit code. Kills
 *  the lab's sshds the run left behind (a crash): they live on in namespaces nobody else can see. */
export async function runInPrivateLab(script: string, args: readonly string[], labDir: string): Promise<number> {
  const child = spawn(
    'unshare',
    ['--mount', '--net', '--propagation', 'private', '--', process.execPath, '--import', 'tsx', script, ...args],
    { stdio: 'inherit', env: { ...process.env, [OUTER_ENV]: namespaceInodes().join(':'), PLAY_LAB_DIR: labDir } },
  );
  const code = await new Promise<number>((done) => child.on('close', (c) => done(c ?? 1)));
  killLeftovers(labDir);
  return code;
}

function killLeftovers(labDir: string): void {
  for (const p of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const sshd = readlinkSync(`/proc/${p}/exe`) === '/usr/sbin/sshd';
      if (sshd && readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(`${labDir}/`)) process.kill(Number(p), 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

/** Inside the private lab, before any lab call: the private mounts. Refuses outside it, where they
 *  would hide the shared lab's namespaces from this machine. */
export function mountPrivateLab(): void {
  if (!inPrivateLab()) throw new Error('mountPrivateLab: not inside runInPrivateLab (unshare --mount --net)');
  mkdirSync(RUN_DIR, { recursive: true });
  mkdirSync('/run/netns', { recursive: true });
  const mount = (...args: string[]) => execFileSync('mount', args);
  mount('-t', 'tmpfs', 'play-bench-lab', RUN_DIR);
  mount('-t', 'tmpfs', 'play-bench-lab', '/run/netns');
  // sysfs shows the network namespace of whoever mounted it: remount it for ours (as ip netns exec does).
  mount('-t', 'sysfs', 'play-bench-lab', '/sys');
  mkdirSync(`${RUN_DIR}/etc-upper`);
  mkdirSync(`${RUN_DIR}/etc-work`);
  mount(
    '-t',
    'overlay',
    'play-bench-lab',
    '-o',
    `lowerdir=/etc,upperdir=${RUN_DIR}/etc-upper,workdir=${RUN_DIR}/etc-work`,
    '/etc',
  );
  mkdirSync('/etc/netns', { recursive: true });
  mount('-t', 'tmpfs', 'play-bench-lab', '/etc/netns');
}
