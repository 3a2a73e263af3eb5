// A private lab for the checks that would disturb the shared one (kill an sshd, delete a namespace,
// flip ip_forward, labDown). Run by sandbox.test.ts as
//   unshare --mount --net --propagation private -- node --import tsx sandbox-scenario.ts
// Its own network namespace holds the bridge (with /sys remounted to show it); tmpfs over /run/netns
// and /run/play-lab, and an overlay over /etc, make the namespace names, the lock and /etc/netns private. It only acts and
// observes, and prints one JSON object; the test file judges.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labDown, labInventoryPath, labStatus, labUp } from '../../lab/lab.js';
import type { LabState } from '../../lab/lab.js';
import { labSshArgs } from '../helpers/lab.js';

const RUN_DIR = '/run/play-lab';

/** Refuses to mount anything unless this process is in other mount and network namespaces than the
 *  test that started it (PLAY_LAB_OUTER_NS="mnt-inode:net-inode"): run elsewhere, the tmpfs mounts
 *  below would hide the real lab's namespaces. */
function namespaceInodes(): string {
  return ['mnt', 'net'].map((kind) => statSync(`/proc/self/ns/${kind}`).ino).join(':');
}

function assertSandboxed(): void {
  const outer = process.env.PLAY_LAB_OUTER_NS?.split(':');
  const own = namespaceInodes().split(':');
  if (!outer || outer.length !== 2 || outer.some((ino, i) => ino === own[i])) {
    throw new Error(
      'sandbox-scenario.ts must run under `unshare --mount --net` with PLAY_LAB_OUTER_NS set (see sandbox.test.ts)',
    );
  }
}

function mountSandbox(): string {
  assertSandboxed();
  mkdirSync(RUN_DIR, { recursive: true });
  mkdirSync('/run/netns', { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', 'play-lab-sandbox', RUN_DIR]);
  execFileSync('mount', ['-t', 'tmpfs', 'play-lab-sandbox', '/run/netns']);
  // sysfs shows the network namespace of whoever mounted it: remount it for ours (as ip netns exec does).
  execFileSync('mount', ['-t', 'sysfs', 'play-lab-sandbox', '/sys']);
  mkdirSync(`${RUN_DIR}/etc-upper`);
  mkdirSync(`${RUN_DIR}/etc-work`);
  execFileSync('mount', [
    '-t',
    'overlay',
    'play-lab-sandbox',
    '-o',
    `lowerdir=/etc,upperdir=${RUN_DIR}/etc-upper,workdir=${RUN_DIR}/etc-work`,
    '/etc',
  ]);
  // Start from no /etc/netns entries at all, not the shared lab's.
  mkdirSync('/etc/netns', { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', 'play-lab-sandbox', '/etc/netns']);
  return `${RUN_DIR}/sandbox-${process.pid}`;
}

function ssh(
  state: LabState,
  name: string,
  command: string,
  extra: string[] = [],
): Promise<{ code: number; out: string }> {
  const h = state.hosts.find((x) => x.name === name)!;
  const args = [...extra, ...labSshArgs(state, `root@${h.address}`), command];
  return new Promise((resolve) => {
    execFile('ssh', args, { encoding: 'utf8', timeout: 30_000 }, (e, stdout, stderr) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, out: (stdout + stderr).trim() }),
    );
  });
}

/** Not yet a zombie (a dying process loses /proc/PID/exe before it closes its sockets). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
const pidOf = (s: LabState, name: string) => s.hosts.find((h) => h.name === name)!.sshdPid;

/** Processes whose command line names the host's sshd config and that are listeners. */
function listeners(dir: string, name: string): number {
  let n = 0;
  for (const p of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      if (cmd.includes(`${dir}/hosts/${name}/sshd_config`) && cmd.includes('[listener]')) n++;
    } catch {
      /* gone */
    }
  }
  return n;
}

function upInChild(dir: string, linux: number, tor: number): Promise<number> {
  const self = fileURLToPath(import.meta.url);
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', self, 'up', String(linux), String(tor)],
      { env: { ...process.env, PLAY_LAB_DIR: dir }, timeout: 60_000 },
      (e) => resolve(e ? (typeof e.code === 'number' ? e.code : -1) : 0),
    );
    child.stderr?.pipe(process.stderr);
  });
}

/** up --bastion 1 --behind-bastion 2: the hosts behind the bastion answer only through it. */
async function jumpHosts(): Promise<Record<string, unknown>> {
  const s = await labUp({ bastion: 1, private: 2 });
  const bastion = s.hosts.find((h) => h.name === 'bastion1')!;
  // OpenSSH's ProxyJump would not pass -i and the known_hosts option to the jump: a ProxyCommand does.
  const via = [
    '-o',
    `ProxyCommand=ssh -i ${s.keyPath} -o UserKnownHostsFile=${s.knownHostsPath} -o StrictHostKeyChecking=yes -o BatchMode=yes -W %h:%p root@${bastion.address}`,
  ];
  return {
    hosts: s.hosts
      .filter((h) => h.name.startsWith('bastion') || h.name.startsWith('private'))
      .map((h) => [h.name, h.address]),
    started: s.started,
    direct: (await ssh(s, 'private1', 'hostname')).code,
    throughBastion: [(await ssh(s, 'private1', 'hostname', via)).out, (await ssh(s, 'private2', 'hostname', via)).out],
    privateRoutes: (await ssh(s, 'private1', 'ip -4 -o route', via)).out,
    bastionAddresses: (await ssh(s, 'bastion1', 'ip -4 -o addr show | grep -o "inet [0-9./]*"')).out,
    status: (await labStatus()).hosts
      .filter((h) => h.group === 'private' || h.group === 'bastion')
      .map((h) => ({ name: h.name, alive: h.sshdAlive, reachable: h.reachable })),
    inventoryGroups: readFileSync(s.inventoryPath, 'utf8').match(/^ {4}(bastion|private):$/gm),
  };
}

// Long because it is one scenario in order (up, break, repair, down) in one private lab; the test file judges it.
async function scenario(): Promise<Record<string, unknown>> {
  const dir = mountSandbox();
  process.env.PLAY_LAB_DIR = dir;
  const r: Record<string, unknown> = { dir };
  let down = false;
  try {
    const s1 = await labUp({ linux: 3, tor: 1 });
    r.firstUp = { hosts: s1.hosts.map((h) => h.name), started: s1.started };
    r.hostnames = await Promise.all(s1.hosts.map(async (h) => (await ssh(s1, h.name, 'hostname')).out));
    r.torKeepalivedDir = (await ssh(s1, 'tor1', 'test -d /etc/keepalived && ls -A /etc/keepalived | wc -l')).out;

    // ip_forward is per network namespace.
    const fwd = async () => ({
      linux1: (await ssh(s1, 'linux1', 'cat /proc/sys/net/ipv4/ip_forward')).out,
      linux2: (await ssh(s1, 'linux2', 'cat /proc/sys/net/ipv4/ip_forward')).out,
      outside: readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim(),
    });
    const fwdBefore = await fwd();
    const set = await ssh(s1, 'linux1', 'sysctl -w net.ipv4.ip_forward=1');
    r.forward = { before: fwdBefore, set, after: await fwd() };

    // A killed sshd: status sees it, up restarts it, the host key stays.
    const killed = pidOf(s1, 'linux2');
    process.kill(killed, 'SIGKILL');
    while (alive(killed)) await new Promise((res) => setTimeout(res, 10));
    const afterKill = (await labStatus()).hosts.find((h) => h.name === 'linux2');
    const s2 = await labUp({ linux: 3, tor: 1 });
    r.restart = {
      killed,
      statusAfterKill: afterKill,
      newPid: pidOf(s2, 'linux2'),
      started: s2.started,
      notes: s2.notes,
      sameKey: s2.hosts[1]!.hostKey === s1.hosts[1]!.hostKey,
      otherPidsSame: ['linux1', 'linux3', 'tor1'].every((n) => pidOf(s1, n) === pidOf(s2, n)),
      hostname: (await ssh(s2, 'linux2', 'hostname')).out,
    };

    // A namespace deleted under its running sshd: up makes a new one and replaces the old sshd.
    const oldPid = pidOf(s2, 'linux3');
    execFileSync('ip', ['netns', 'del', 'linux3']);
    const s3 = await labUp({ linux: 3, tor: 1 });
    await new Promise((res) => setTimeout(res, 50));
    r.renamespace = {
      started: s3.started,
      oldAlive: alive(oldPid),
      hostname: (await ssh(s3, 'linux3', 'hostname')).out,
    };

    // Three processes growing the lab at once: serialized, one sshd per host.
    const codes = await Promise.all([upInChild(dir, 5, 2), upInChild(dir, 5, 2), upInChild(dir, 4, 2)]);
    const s4 = await labUp({ linux: 1, tor: 0 });
    r.concurrent = {
      codes,
      hosts: s4.hosts.map((h) => h.name),
      listeners: Object.fromEntries(s4.hosts.map((h) => [h.name, listeners(dir, h.name)])),
      kept: s4.kept,
      started: s4.started,
    };
    // Simulated Windows nodes from none: timed; their simulators must be gone after down, too.
    const w0 = performance.now();
    const s5 = await labUp({ windows: 2 });
    r.windows = {
      ms: Math.round(performance.now() - w0),
      started: s5.started,
      hosts: s5.hosts.filter((h) => h.group === 'windows').map((h) => [h.name, h.address]),
      status: (await labStatus()).hosts
        .filter((h) => h.group === 'windows')
        .map((h) => ({ name: h.name, alive: h.sshdAlive, reachable: h.reachable })),
    };
    r.jumps = await jumpHosts();
    const status = await labStatus();
    r.statusBeforeDown = { up: status.up, hosts: status.hosts.length };

    const pids = s5.hosts.map((h) => h.sshdPid);
    const t0 = performance.now();
    await labDown();
    down = true;
    r.downMs = Math.round(performance.now() - t0);
    let inventoryError = '';
    try {
      labInventoryPath();
    } catch (e) {
      inventoryError = (e as Error).message;
    }
    r.afterDown = {
      namespaces: readdirSync('/run/netns'),
      links: execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' })
        .split('\n')
        .filter((l) => /playlab0|playlab1|pl-|plp-/.test(l)),
      routes: execFileSync('ip', ['route', 'show', '198.18.0.0/15'], { encoding: 'utf8' }).trim(),
      etcNetns: existsSync('/etc/netns') ? readdirSync('/etc/netns') : null,
      labDir: existsSync(dir),
      sshdAlive: pids.filter(alive),
      inventoryError,
      status: await labStatus(),
    };
    await labDown();
    r.secondDown = 'ok';
  } catch (e) {
    r.error = (e as Error).stack ?? String(e);
  } finally {
    if (!down)
      await labDown().catch((e: Error) => {
        r.cleanupError = e.message;
      });
  }
  return r;
}

// Only as a program (never on import): `up L T` is one of the concurrent children, else the scenario.
if (process.argv[1] && resolvePath(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv[2] === 'up') {
    assertSandboxed();
    await labUp({ linux: Number(process.argv[3]), tor: Number(process.argv[4]) });
  } else {
    process.stdout.write(JSON.stringify(await scenario()) + '\n');
  }
}
