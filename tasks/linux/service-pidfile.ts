// The pidfile service manager, for hosts without systemd (the lab's network namespaces): a daemon
// started detached by argv, and known by a pidfile at a per-host path.
//
// Running means: the pidfile holds a pid, /proc/PID/exe is the expected executable, and
// /proc/PID/ns/net is our own network namespace. `kill -0` is not enough: namespaces made by
// `ip netns` share one pid space and often one /run, so a pidfile may name a live process of
// another host (or a reused pid, or a zombie, which kill -0 also calls alive). keepalived itself
// makes that mistake: it refuses to start ("daemon is already running") while any of its pidfiles
// names a live pid, which is why a start clears pidfiles judged stale, extra ones included.
//
// Start: `setsid -f ARGV </dev/null >>LOG 2>&1` (a daemon holding the SSH channel's fds would
// hang it), then up to START_WAIT_S for the pidfile to name a live process. Stop: SIGTERM, up to
// STOP_WAIT_S for it to exit, then SIGKILL (and its pidfiles are removed, since it could not).
import { posix } from 'node:path';
import { z } from 'zod';
import { joinScripts, sh, type Script } from '../../runner/core/quote.js';
import type { ProbeLines } from './probe-lines.js';

export interface PidfileSpec {
  /** argv of the daemon; it must write pidFile itself (and not need a terminal). */
  readonly command: readonly string[];
  readonly pidFile: string;
  /** Other pidfiles the daemon writes (keepalived's -r/-c/-b): cleared with a stale pidFile. */
  readonly extraPidFiles: readonly string[];
  /** stdout and stderr of the daemon, appended; default /dev/null. */
  readonly logFile: string;
  /** Expected /proc/PID/exe; default: command[0] as found in PATH, symlinks resolved. */
  readonly exe?: string;
}

export interface PidfileState {
  readonly running: boolean;
  readonly pid: number | null;
  /** Why it is not running, for the plan: `pid 123 runs in another network namespace`. */
  readonly detail: string;
}

export const START_WAIT_S = 5;
export const STOP_WAIT_S = 10;
const KILL_WAIT_S = 2;

const KEYS = ['command', 'pidFile', 'logFile', 'exe', 'extraPidFiles'] as const;

/** An absolute file path as given (no trailing slash, no newline or NUL). */
const filePathOption = () =>
  z.custom<string>((v) => typeof v === 'string' && v.startsWith('/') && !/[\n\0]/.test(v) && !v.endsWith('/'), {
    error: (iss) => `must be an absolute file path, got ${JSON.stringify(iss.input)}`,
  });

const daemonArgv = z
  .custom<readonly string[]>((v) => Array.isArray(v) && v.length > 0, {
    error: "must be the daemon's argv, a non-empty array of strings",
  })
  .superRefine((argv, ctx) => {
    const bad = argv.findIndex((w) => typeof w !== 'string' || w.includes('\0'));
    if (bad >= 0) return ctx.addIssue({ code: 'custom', path: [bad], message: 'must be a string without NUL' });
    if (argv[0] === '' || argv[0]!.startsWith('-'))
      ctx.addIssue({ code: 'custom', path: [0], message: 'must be a program (not empty, not starting with -)' });
  })
  .transform((argv) => Object.freeze([...argv]));

/** The pidfile manager's options (service's `pidfile`), normalized to a frozen PidfileSpec. */
export const PidfileOptions = z
  .strictObject(
    {
      command: daemonArgv,
      pidFile: filePathOption(),
      logFile: filePathOption().default('/dev/null'),
      exe: filePathOption().optional(),
      extraPidFiles: z
        .array(filePathOption(), { error: 'must be an array of absolute paths' })
        .readonly()
        .default(Object.freeze([])),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `is not an option of the pidfile manager (known: ${KEYS.join(', ')})`
          : iss.code === 'invalid_type'
            ? `must be an object { command, pidFile, logFile?, exe?, extraPidFiles? }`
            : undefined,
    },
  )
  .transform(({ exe, ...spec }): PidfileSpec => Object.freeze({ ...spec, ...(exe === undefined ? {} : { exe }) }));

/**
 * Shell functions shared by the probe and the actions, so that all judge a pid alike:
 * play_alive PID (our executable, our network namespace) and play_pidof (the pidfile's live pid).
 */
function prelude(s: PidfileSpec): Script {
  const expect =
    s.exe !== undefined
      ? sh`play_expect=$(readlink -f ${s.exe} 2>/dev/null) || play_expect=${s.exe}`
      : sh`if play_p=$(command -v ${s.command[0]!}); then play_expect=$(readlink -f "$play_p" 2>/dev/null) || play_expect=$play_p; else play_expect=''; fi`;
  return joinScripts('sh', [
    expect,
    // A zombie has no exe link; a binary replaced by an upgrade shows as `PATH (deleted)`.
    sh`play_alive() {
  play_x=$(readlink "/proc/$1/exe" 2>/dev/null) || return 1
  [ -n "$play_expect" ] && [ "\${play_x% (deleted)}" = "$play_expect" ] || return 1
  [ "$(readlink "/proc/$1/ns/net" 2>/dev/null)" = "$(readlink /proc/self/ns/net)" ]
}`,
    sh`play_pidof() {
  [ -f ${s.pidFile} ] || return 1
  play_p=$(head -n 1 ${s.pidFile} 2>/dev/null | tr -d ' \\t\\r')
  case $play_p in ''|*[!0-9]*) return 1 ;; esac
  play_alive "$play_p" && printf '%s\\n' "$play_p"
}`,
  ]);
}

/** Facts, judged by parsePidfileProbe: `expect PATH`, `pid none|bad|N`, `exe PATH`, `netns same|other|unknown`. */
export function pidfileProbeScript(s: PidfileSpec): Script {
  return joinScripts('sh', [
    prelude(s),
    sh`printf 'expect %s\\n' "$play_expect"`,
    sh`if ! [ -f ${s.pidFile} ]; then echo 'pid none'
else
  play_p=$(head -n 1 ${s.pidFile} 2>/dev/null | tr -d ' \\t\\r')
  case $play_p in
    ''|*[!0-9]*) echo 'pid bad' ;;
    *) printf 'pid %s\\nexe %s\\n' "$play_p" "$(readlink "/proc/$play_p/exe" 2>/dev/null)"
       play_n=$(readlink "/proc/$play_p/ns/net" 2>/dev/null)
       if [ -z "$play_n" ]; then echo 'netns unknown'; elif [ "$play_n" = "$(readlink /proc/self/ns/net)" ]; then echo 'netns same'; else echo 'netns other'; fi ;;
  esac
fi`,
  ]);
}

export function parsePidfileProbe(lines: ProbeLines, s: PidfileSpec): PidfileState & { expect: string } {
  const expect = lines.record('expect');
  const pid = lines.record('pid');
  const stopped = (detail: string) => ({ running: false, pid: null, detail, expect });
  if (pid === 'none') return stopped(`no pidfile ${s.pidFile}`);
  if (pid === 'bad') return stopped(`${s.pidFile} holds no pid`);
  if (!/^[0-9]+$/.test(pid)) lines.fail(`malformed pid ${JSON.stringify(pid)}`);
  const exe = lines.record('exe').replace(/ \(deleted\)$/, '');
  const netns = lines.record('netns');
  if (!['same', 'other', 'unknown'].includes(netns)) lines.fail(`unknown netns state ${JSON.stringify(netns)}`);
  if (exe === '') return stopped(`pid ${pid} from ${s.pidFile} is not running`);
  if (expect === '') return stopped(`${s.command[0]} is not installed (not found in PATH)`);
  if (exe !== expect) return stopped(`pid ${pid} from ${s.pidFile} is ${exe}, not ${expect} (a stale pidfile)`);
  if (netns !== 'same')
    return stopped(`pid ${pid} from ${s.pidFile} runs in another network namespace (a stale pidfile of another host)`);
  return { running: true, pid: Number(pid), detail: `pid ${pid}`, expect };
}

function startPart(s: PidfileSpec, name: string): Script {
  const dirs = [
    ...new Set([posix.dirname(s.pidFile), ...(s.logFile === '/dev/null' ? [] : [posix.dirname(s.logFile)])]),
  ];
  const failed = `${name} did not start: after ${START_WAIT_S} s ${s.pidFile} names no live ${s.exe ?? s.command[0]} in this network namespace`;
  return sh`if [ -z "$play_expect" ]; then printf '%s: not found\\n' ${s.command[0]!} >&2; exit 127; fi
if play_pid=$(play_pidof); then printf 'pid %s\\n' "$play_pid"; exit 0; fi
rm -f ${s.pidFile} ${s.extraPidFiles}
mkdir -p ${dirs}
cd / && setsid -f ${s.command} </dev/null >>${s.logFile} 2>&1 || exit
play_i=0
while [ "$play_i" -lt ${START_WAIT_S * 10} ]; do
  if play_pid=$(play_pidof); then printf 'pid %s\\n' "$play_pid"; exit 0; fi
  sleep 0.1; play_i=$((play_i + 1))
done
printf '%s\\n' ${failed} >&2
${s.logFile === '/dev/null' ? sh`:` : sh`tail -n 20 ${s.logFile} >&2`}
exit 1`;
}

function stopPart(s: PidfileSpec, name: string): Script {
  const wait = (seconds: number) =>
    sh`play_i=0; while play_alive "$play_pid" && [ "$play_i" -lt ${seconds * 10} ]; do sleep 0.1; play_i=$((play_i + 1)); done`;
  return sh`if play_pid=$(play_pidof); then
  kill -TERM "$play_pid" 2>/dev/null || :
  ${wait(STOP_WAIT_S)}
  if play_alive "$play_pid"; then
    printf '%s\\n' ${`${name} (pid `}"$play_pid"${`) did not stop within ${STOP_WAIT_S} s of SIGTERM: sending SIGKILL`} >&2
    kill -KILL "$play_pid" 2>/dev/null || :
    ${wait(KILL_WAIT_S)}
    if play_alive "$play_pid"; then printf '%s\\n' ${`${name} survived SIGKILL`} >&2; exit 1; fi
    rm -f ${s.pidFile} ${s.extraPidFiles}
  fi
fi`;
}

export type PidfileAction = 'start' | 'stop' | 'restart';

/** One script per action; start and restart print `pid N` for the live process. */
export function pidfileActionScript(s: PidfileSpec, name: string, action: PidfileAction): Script {
  const parts = [prelude(s)];
  if (action !== 'start') parts.push(stopPart(s, name));
  if (action !== 'stop') parts.push(startPart(s, name));
  return joinScripts('sh', parts);
}
