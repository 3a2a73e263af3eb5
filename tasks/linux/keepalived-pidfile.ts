// The pidfile-manager options that run keepalived on a host without systemd (see service.ts):
//   service({ name: 'keepalived', state: 'running', pidfile: keepalivedPidfile({ runDir: '/etc/keepalived/run' }) })
// Every pidfile keepalived checks goes to runDir (-p main, -r vrrp, -c checkers, -b bfd): with
// any default one (/run/keepalived.pid, /run/vrrp.pid, /run/checkers.pid, /run/bfd.pid, shared by
// every network namespace) naming a live process of another host, keepalived 2.2.7 refuses to
// start ("daemon is already running"), even with -P. -n keeps it in the foreground (setsid
// detaches it) so that -l logs go to the log file; -D adds detail.
import { posix } from 'node:path';
import { DEFAULT_KEEPALIVED_BIN, DEFAULT_KEEPALIVED_CONF } from './keepalived-conf.js';
import type { ServiceOptions } from './service.js';

export interface KeepalivedPidfileOptions {
  /** A per-host directory (in the lab, one under /etc/keepalived or a private /var/tmp). */
  runDir: string;
  conf?: string;
  bin?: string;
  /** Default `<runDir>/keepalived.log`. */
  logFile?: string;
  /** Set false for a keepalived built without BFD (it has no -b option). Default true. */
  bfd?: boolean;
}

export function keepalivedPidfile(o: KeepalivedPidfileOptions): NonNullable<ServiceOptions['pidfile']> {
  const at = (name: string) => posix.join(o.runDir, name);
  const bin = o.bin ?? DEFAULT_KEEPALIVED_BIN;
  const children: [string, string][] = [
    ['-r', at('vrrp.pid')],
    ['-c', at('checkers.pid')],
    ...(o.bfd === false ? [] : [['-b', at('bfd.pid')] as [string, string]]),
  ];
  return {
    command: [
      bin,
      '-n',
      '-l',
      '-D',
      '-f',
      o.conf ?? DEFAULT_KEEPALIVED_CONF,
      '-p',
      at('keepalived.pid'),
      ...children.flat(),
    ],
    pidFile: at('keepalived.pid'),
    extraPidFiles: children.map(([, path]) => path),
    logFile: o.logFile ?? at('keepalived.log'),
    exe: bin,
  };
}
