// Where a run's events go besides the renderer: --events (JSON Lines), --log (-vv detail with ISO
// timestamps, whatever the console shows), the console's verbose lines (-v...) and the heartbeat.
// One fan-out: each RunEvent becomes one stamped event (events.ts) that every file and verbose
// consumer reads; the heartbeat reads the RunEvent and its time, so a plain run stamps none.
// The files are opened before the run starts (a regular file made 0600): one that cannot be written
// is a usage error.
import { closeSync, fchmodSync, fstatSync, openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import type { RunEvent } from '../run/run-graph.js';
import { eventLine, type PlayEvent, toPlayEvent } from './events.js';
import { Heartbeat, heartbeatSeconds } from './heartbeat.js';
import { isoTime, stampedStream, timeOfDay } from './timestamps.js';
import { VerboseRenderer } from './verbose.js';

/** What --log keeps whatever the console shows: -vv. */
export const LOG_LEVEL = 2;

export interface RunOutputOptions {
  /** How many -v (0 to 3; more count as 3). */
  verbosity: number;
  /** --events: a file, or `-` for stdout. */
  events?: string;
  /** --log FILE. */
  log?: string;
  /** The console stream the human view goes to (stdout, or stderr with --json or --events -). */
  view: Writable;
  /** stdout, for `--events -`. */
  stdout: Writable;
  /** Whether the view is the live (listr2) one: it shows progress itself, no stamps, no heartbeat. */
  live: boolean;
}

/** Opens FILE for writing (created or truncated, mode 0600), or says why not naming the flag: exit 64. */
export function openPrivateFile(flag: string, file: string): number {
  let fd: number;
  try {
    fd = openSync(file, 'w', 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'its directory does not exist' : code === 'EISDIR' ? 'it is a directory' : code;
    throw new UsageError(`${flag} ${file}: cannot write it (${why ?? (e as Error).message}): give a writable path`);
  }
  // An existing file keeps its mode on open, and a log may hold host names and commands: 0600. Only a
  // regular file: `--events /dev/null` (or a pipe) is the system's, and a root run would lock others out.
  if (fstatSync(fd).isFile()) fchmodSync(fd, 0o600);
  return fd;
}

/** Synchronous writes to a file descriptor: a log's lines are on disk even when the process is cut short. */
function fdStream(fd: number): Writable {
  return new Writable({
    write(chunk: Buffer, _enc, done) {
      writeSync(fd, chunk);
      done();
    },
  });
}

export class RunOutputs {
  /** The console stream renderers write to: stamped unless the view is live. */
  readonly view: Writable;
  readonly #verbosity: number;
  /** The most detailed trace level any consumer reads. */
  readonly #traceLevel: number;
  readonly #fds: number[] = [];
  readonly #sinks: ((e: PlayEvent) => void)[] = [];
  readonly #heartbeat: Heartbeat | undefined;

  constructor(o: RunOutputOptions) {
    for (const [flag, file] of [
      ['--events', o.events],
      ['--log', o.log],
    ] as const)
      if (file === '') throw new UsageError(`${flag} needs a file name (or - for stdout, with --events)`);
    const beat = heartbeatSeconds();
    if (typeof beat === 'string') throw new UsageError(beat);
    this.#verbosity = Math.min(3, Math.max(0, o.verbosity));
    this.#traceLevel = o.log ? Math.max(LOG_LEVEL, this.#verbosity) : this.#verbosity;
    const eventsFd = o.events && o.events !== '-' ? this.#open('--events', o.events) : undefined;
    const logFd = o.log ? this.#open('--log', o.log) : undefined;
    this.view = o.live && this.#verbosity === 0 ? o.view : stampedStream(o.view, timeOfDay);
    if (o.events) {
      const target = eventsFd === undefined ? o.stdout : fdStream(eventsFd);
      this.#sinks.push((e) => {
        if (e.type !== 'trace' || e.level <= this.#verbosity) target.write(eventLine(e));
      });
    }
    if (logFd !== undefined) {
      const log = new VerboseRenderer(stampedStream(fdStream(logFd), isoTime), {
        level: Math.max(LOG_LEVEL, this.#verbosity),
        runLines: true,
      });
      this.#sinks.push((e) => log.onEvent(e));
    }
    if (this.#verbosity > 0) {
      const console = new VerboseRenderer(this.view, { level: this.#verbosity, runLines: false });
      this.#sinks.push((e) => console.onEvent(e));
    }
    if (!o.live) this.#heartbeat = new Heartbeat((line) => this.view.write(`${line}\n`), beat * 1000);
  }

  /** The console stream of the human view: stderr when stdout carries JSON (--json, --events -). */
  static consoleOf(o: { json: boolean; events?: string }, stdout: Writable, stderr: Writable): Writable {
    if (o.json && o.events === '-')
      throw new UsageError('--events - and --json both write to stdout: give --events a FILE (or drop --json)');
    return o.json || o.events === '-' ? stderr : stdout;
  }

  /** The pool's trace hook when anyone reads the -vvv connection detail. */
  connectionTrace(): ((host: string, text: string) => void) | undefined {
    if (this.#traceLevel < 3) return undefined;
    return (host, text) => this.onEvent({ type: 'trace', level: 3, host, text });
  }

  onEvent(e: RunEvent): void {
    if (e.type === 'trace' && e.level > this.#traceLevel) return;
    const now = Date.now();
    this.#heartbeat?.onEvent(e, now);
    if (this.#sinks.length === 0) return;
    const event = toPlayEvent(e, new Date(now));
    for (const sink of this.#sinks) sink(event);
  }

  close(): void {
    this.#heartbeat?.stop();
    for (const fd of this.#fds.splice(0)) closeSync(fd);
  }

  #open(flag: string, file: string): number {
    const fd = openPrivateFile(flag, file);
    this.#fds.push(fd);
    return fd;
  }
}
