// This process's identity for the rolling lease, and whether another one is provably gone. Linux's /proc
// tells: the boot id, the pid namespace and each process's start time. A pid alone, or a pid and a host
// name, says nothing (pids are reused; containers share host names and pids), so a holder counts as gone
// only when it ran under this kernel boot, in this pid namespace, and its pid is free or now names a
// process that started at another time. Elsewhere the lease's expiry decides.
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { ProcessIdentity } from './lease.js';

function read(path: string, how: 'file' | 'link'): string | null {
  try {
    return how === 'file' ? readFileSync(path, 'utf8').trim() : readlinkSync(path);
  } catch {
    return null;
  }
}

/** Field 22 of /proc/PID/stat (starttime), read after the command name, which may hold spaces. */
function startTicks(pid: number | 'self'): string | null {
  const stat = read(`/proc/${pid}/stat`, 'file');
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
}

let self: ProcessIdentity | null = null;

export function currentIdentity(): ProcessIdentity {
  self ??= {
    host: hostname(),
    bootId: read('/proc/sys/kernel/random/boot_id', 'file') ?? 'unknown',
    pidNamespace: read('/proc/self/ns/pid', 'link') ?? 'unknown',
    pid: process.pid,
    startTicks: startTicks('self') ?? 'unknown',
  };
  return self;
}

/** Whether the process `other` provably no longer runs (false when this machine cannot tell). */
export function isProcessGone(other: ProcessIdentity, me: ProcessIdentity = currentIdentity()): boolean {
  if (me.bootId === 'unknown' || other.bootId !== me.bootId || other.pidNamespace !== me.pidNamespace) return false;
  const now = startTicks(other.pid);
  return now === null || now !== other.startTicks;
}

/** This controller as reports name it: `host (pid N)`. */
export function controllerName(id: Pick<ProcessIdentity, 'host' | 'pid'> = currentIdentity()): string {
  return `${id.host} (pid ${id.pid})`;
}
