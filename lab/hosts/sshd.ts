// One sshd per lab host: its config, its start inside the host's namespaces, and whether it runs.
// "Runs" means the pidfile's pid is alive, is an sshd, and lives in the host's network namespace:
// pids are reused, so `kill -0` alone would call a stale pidfile healthy.
import { readFileSync, readlinkSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { HostPaths } from '../paths.js';
import { IP, SSHD, UNSHARE, run } from '../exec.js';
import type { HostPlan } from './topology.js';

export function sshdConfig(host: HostPlan, paths: HostPaths, authorizedKeys: string): string {
  return [
    `# sshd for lab host ${host.name}, written by play lab (rewritten by every \`play lab up\`)`,
    `ListenAddress ${host.address}`,
    'Port 22',
    `HostKey ${paths.hostKey}`,
    `PidFile ${paths.pidFile}`,
    `AuthorizedKeysFile ${authorizedKeys}`,
    'PermitRootLogin prohibit-password',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    // No PAM: nothing to log in through but the lab key, and PAM session setup costs time per login.
    'UsePAM no',
    // The lab's key files are owned and placed by play, not by the logged-in user's home.
    'StrictModes no',
    'UseDNS no',
    'PrintMotd no',
    'X11Forwarding no',
    'AcceptEnv LANG LC_*',
    'Subsystem sftp internal-sftp',
    // MaxStartups and MaxSessions stay at sshd's defaults on purpose: real hosts have them, and a
    // client that is fine against the lab must stay under both.
    '',
  ].join('\n');
}

/** The script run as `sh -c SCRIPT sh NAME CONF PIDFILE LOG BASHRC TMP SRV OPT VARTMP NETWORK`; values
 *  arrive as positional parameters, never inside the script text. It runs in the mount namespace that
 *  `ip netns exec` made (already a slave of the root one, so these mounts stay private to the host).
 *  NETWORK, when not empty, is the host's `ip -batch` (netns.ts namespaceBatch): run here, where the
 *  namespace already is, it costs no process of its own. Builtins where they do: a thousand hosts. */
const START_SCRIPT = [
  'set -e',
  'if [ -n "${10}" ]; then printf %s "${10}" | ' + IP + ' -batch -; fi',
  'echo "$1" > /proc/sys/kernel/hostname',
  // Every namespace of the lab is a mount under /run/netns, a shared mount: this host's copy of the
  // mount table would hold all of them and receive every later `ip netns add`, a thousand hosts times
  // a thousand mounts. None of them is of use inside a host.
  'umount -l /run/netns 2>/dev/null || true',
  // The machine's /root/.bashrc is read by every non-interactive ssh command and is heavy (docs/lab.md#costs).
  'if [ -e /root/.bashrc ]; then mount --bind "$5" /root/.bashrc; fi',
  '[ -d /srv ] || mkdir /srv',
  '[ -d /opt ] || mkdir /opt',
  'mount --bind "$6" /tmp',
  'mount --bind "$7" /srv',
  'mount --bind "$8" /opt',
  'mount --bind "$9" /var/tmp',
  'exec /usr/sbin/sshd -f "$2" -o PidFile="$3" -E "$4"',
].join('\n');

/** Starts sshd in the host's namespaces; resolves once its pidfile names a healthy sshd. sshd forks
 *  into the background before it binds, so a failed bind (the previous sshd of this host still
 *  closing its socket) shows only as no pidfile: then it tries again, three times in all. */
export async function startSshd(host: HostPlan, paths: HostPaths, network = ''): Promise<number> {
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 }); // sshd's privilege-separation directory
  const p = paths.privateDirs;
  for (let attempt = 1; attempt <= 3; attempt++) {
    rmSync(paths.pidFile, { force: true });
    try {
      await run(IP, [
        'netns',
        'exec',
        host.namespace,
        UNSHARE,
        '--uts',
        '--',
        '/bin/sh',
        '-c',
        START_SCRIPT,
        'sh',
        host.name,
        paths.sshdConfig,
        paths.pidFile,
        paths.log,
        paths.bashrc,
        p['/tmp'],
        p['/srv'],
        p['/opt'],
        p['/var/tmp'],
        attempt === 1 ? network : '',
      ]);
    } catch (e) {
      throw new Error(`${host.name}: sshd did not start: ${(e as Error).message}${logTail(paths.log)}`);
    }
    // sshd writes its pidfile after it listens, so a healthy pid means the host accepts connections.
    const deadline = Date.now() + 3000;
    while (Date.now() < deadline) {
      const pid = readPid(paths.pidFile);
      if (pid !== undefined && sshdHealthy(pid, host.namespace)) return pid;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  throw new Error(`${host.name}: sshd started but did not come up (3 tries)${logTail(paths.log)}`);
}

/** The last lines of a daemon's log, for an error message about it. */
export function logTail(log: string): string {
  try {
    const lines = readFileSync(log, 'utf8').trim().split('\n').slice(-5).join('\n');
    return lines ? `\n${log}:\n${lines}` : '';
  } catch {
    return '';
  }
}

export function readPid(pidFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Identity of a network namespace (device and inode of its nsfs file), or undefined. */
export function netnsId(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}

export function namespacePath(ns: string): string {
  return `/run/netns/${ns}`;
}

function isSshd(pid: number): boolean {
  try {
    // After a package upgrade the running binary shows as "/usr/sbin/sshd (deleted)": still sshd.
    return readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '') === SSHD;
  } catch {
    return false;
  }
}

/** pid is alive, is /usr/sbin/sshd, and is in namespace `ns`. */
export function sshdHealthy(pid: number, ns: string): boolean {
  const want = netnsId(namespacePath(ns));
  return want !== undefined && isSshd(pid) && netnsId(`/proc/${pid}/ns/net`) === want;
}

/** The pidfile's sshd when it is healthy. */
export function runningSshd(paths: HostPaths, ns: string): number | undefined {
  const pid = readPid(paths.pidFile);
  return pid !== undefined && sshdHealthy(pid, ns) ? pid : undefined;
}

/** Every process whose network namespace is `ns` (what `ip netns pids` lists). */
export function pidsInNamespace(ns: string): number[] {
  return pidsInNamespaces([ns]).get(ns) ?? [];
}

/** The processes of each of the namespaces, in one pass over /proc (one pass per host would make a
 *  thousand-host lab cost a million stat calls). Namespaces that do not exist are left out. */
export function pidsInNamespaces(namespaces: readonly string[]): Map<string, number[]> {
  const byId = new Map<string, string>();
  for (const ns of namespaces) {
    const id = netnsId(namespacePath(ns));
    if (id !== undefined) byId.set(id, ns);
  }
  const pids = new Map<string, number[]>();
  if (byId.size === 0) return pids;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ns = byId.get(netnsId(`/proc/${entry}/ns/net`) ?? '');
    if (ns === undefined) continue;
    const list = pids.get(ns) ?? [];
    list.push(Number(entry));
    pids.set(ns, list);
  }
  return pids;
}

/** sshd listeners in the namespace that the pidfile does not know (e.g. the lab dir was lost):
 *  a new one could not bind the address. Sessions' processes are not listeners and are left be. */
export function strayListeners(ns: string, inNamespace: readonly number[] = pidsInNamespace(ns)): number[] {
  return inNamespace.filter((pid) => {
    try {
      return isSshd(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('[listener]');
    } catch {
      return false;
    }
  });
}

/** Sends SIGTERM, then SIGKILL to whatever is left after `graceMs`. */
export async function terminate(pids: readonly number[], graceMs = 2000): Promise<void> {
  const signal = (pid: number, sig: NodeJS.Signals) => {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  };
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25));
    left = left.filter(alive);
  }
  for (const pid of left) signal(pid, 'SIGKILL');
}

/** Waits (at most `ms`) for a process to exit; a dying one has lost /proc/PID/exe but may still hold its sockets. */
export async function waitExited(pid: number, ms = 2000): Promise<void> {
  const deadline = Date.now() + ms;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}

function alive(pid: number): boolean {
  try {
    // A zombie is dead for our purposes: it only waits for its parent to reap it.
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
