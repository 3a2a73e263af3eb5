// Without a terminal, a long step (a reboot, a drain) would leave the log silent for minutes: every
// interval (30 s; PLAY_HEARTBEAT_SEC for tests and CI) a line says how many hosts are done and what
// each running host waits on, e.g. `node009: reboot (waiting 2m10s)`. The state is fed the runner's
// events with their time, not the stamped events --events writes: a run without --events, --log or
// -v then builds none (at 1,000 hosts a drift tick has some 12,000); the line is a pure function of
// the state and the clock.
import type { RunEvent } from '../run/run-graph.js';

export const DEFAULT_HEARTBEAT_SEC = 30;
/** Running hosts named in one heartbeat line; beyond, a count. */
export const HEARTBEAT_HOSTS_MAX = 10;

/** `45s`, `2m10s`, `1h05m`. */
export function waited(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

interface Running {
  task?: string;
  /** When the current step started (ms since the epoch). */
  since: number;
}

/** What the heartbeat knows: the run's hosts, those done, and each running host's step. */
export class HeartbeatState {
  total = 0;
  done = 0;
  readonly running = new Map<string, Running>();

  /** `e` happened at `at` (ms since the epoch). */
  onEvent(e: RunEvent, at: number): void {
    switch (e.type) {
      case 'run-start':
        this.total += e.hosts.length;
        break;
      case 'host-start':
        this.running.set(e.host, { since: at });
        break;
      case 'step-start':
        this.running.set(e.node.runsOn.name, { task: e.node.task, since: at });
        break;
      case 'step-done': {
        const host = e.node.runsOn.name;
        if (this.running.has(host)) this.running.set(host, { since: at });
        break;
      }
      case 'host-done':
        this.done++;
        this.running.delete(e.host);
        break;
    }
  }

  /** The heartbeat line at `now`, or null when no host is running. */
  line(now: number): string | null {
    if (this.running.size === 0) return null;
    const hosts = [...this.running].sort((a, b) => a[1].since - b[1].since);
    const named = hosts
      .slice(0, HEARTBEAT_HOSTS_MAX)
      .map(([h, r]) => `${h}: ${r.task ?? 'between steps'} (waiting ${waited(now - r.since)})`);
    const more = hosts.length > HEARTBEAT_HOSTS_MAX ? `, and ${hosts.length - HEARTBEAT_HOSTS_MAX} more` : '';
    return `still running: ${this.done} of ${this.total} hosts done, ${this.running.size} running: ${named.join(', ')}${more}`;
  }
}

/** The interval from PLAY_HEARTBEAT_SEC (seconds, fractions allowed), else the default; a bad value is a usage error. */
export function heartbeatSeconds(env: NodeJS.ProcessEnv = process.env): number | string {
  const v = env.PLAY_HEARTBEAT_SEC;
  if (v === undefined || v === '') return DEFAULT_HEARTBEAT_SEC;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) return `PLAY_HEARTBEAT_SEC=${v}: expected a number of seconds above 0, e.g. 30`;
  return n;
}

/** Writes the state's line every `intervalMs` while hosts run. */
export class Heartbeat {
  readonly state = new HeartbeatState();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly write: (line: string) => void,
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  onEvent(e: RunEvent, at: number = this.now()): void {
    this.state.onEvent(e, at);
    if (e.type === 'run-start' && !this.#timer) {
      this.#timer = setInterval(() => this.beat(), this.intervalMs);
      this.#timer.unref();
    }
    if (e.type === 'run-done') this.stop();
  }

  beat(): void {
    const line = this.state.line(this.now());
    if (line) this.write(line);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
