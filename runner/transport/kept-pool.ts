// Connections kept between the runs of a schedule (`play drift --every/--cron`): one ConnectionPool
// for the whole loop, so that a steady-state check costs one round trip per host, not a handshake.
// Keepalive stays on (the pool's ServerAlive settings); a connection that dropped between runs is
// reopened by its next command, with the same host key checks as a first connect (ssh-connection.ts).
// Which to close is keep-policy.ts: idle for PLAY_KEEP_IDLE_TICKS runs, or least recently used past
// the cap PLAY_KEEP_CONNECTIONS. A host whose connection settings changed in the inventory between
// runs gets a new connection.
import { UsageError } from '../core/errors.js';
import type { Host, ResolvedSecrets } from '../inventory/model.js';
import { ReadCache } from '../run/read-cache.js';
import type { ExecConnection } from './become.js';
import { idleToClose, type KeepLimits, type KeptEntry, overCapToClose } from './keep-policy.js';
import type { ConnectionPool } from './pool.js';
import { SshConnection } from './ssh-connection.js';

/** What one run uses of its connections; `done` ends the run (a per-run pool closes them all). */
export interface RunConnections {
  shell(host: Host, secrets?: ResolvedSecrets): Promise<ExecConnection>;
  release(hostName: string): Promise<void>;
  done(): Promise<void>;
}

/**
 * One run's connections, closed when it is done: what a drift run outside a schedule does. A host
 * done with one playbook is kept until the run ends: the run's next playbook may check it too.
 */
export function perRunConnections(pool: ConnectionPool): RunConnections {
  return {
    shell: (host, secrets) => pool.shell(host, secrets),
    release: async () => undefined,
    done: () => pool.closeAll(),
  };
}

/** A run's connections: the schedule's kept ones when there are, else its own pool from `open`. */
export function runConnections(kept: KeptConnections | undefined, open: () => ConnectionPool): Promise<RunConnections> {
  return kept ? kept.forRun(open) : Promise.resolve(perRunConnections(open()));
}

export const DEFAULT_KEEP_LIMITS: KeepLimits = { cap: 2000, idleTicks: 3 };

/** The limits from PLAY_KEEP_CONNECTIONS (cap, 0 keeps none) and PLAY_KEEP_IDLE_TICKS (at least 1). */
export function keepLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): KeepLimits {
  const read = (name: string, text: string | undefined, min: number, fallback: number, what: string) => {
    if (text === undefined || text === '') return fallback;
    if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > 1_000_000)
      throw new UsageError(`${name}='${text}': expected ${what}, a whole number from ${min} to 1000000`);
    return Number(text);
  };
  return {
    cap: read(
      'PLAY_KEEP_CONNECTIONS',
      env.PLAY_KEEP_CONNECTIONS,
      0,
      DEFAULT_KEEP_LIMITS.cap,
      'the most connections kept open between runs (0: none)',
    ),
    idleTicks: read(
      'PLAY_KEEP_IDLE_TICKS',
      env.PLAY_KEEP_IDLE_TICKS,
      1,
      DEFAULT_KEEP_LIMITS.idleTicks,
      'the runs a connection may go unused before it is closed',
    ),
  };
}

/** What a run did with the kept connections. */
export interface KeptRunStats {
  /** Hosts whose connection was already open when the run began. */
  reused: number;
  /** Hosts connected anew: first use, closed as idle or over the cap, or a failed connect earlier. */
  opened: number;
  /** Kept connections that had dropped and were reopened on use. */
  reopened: number;
  /** Connections closed by the limits during the run (idle ones at its start, least recently used ones). */
  closed: number;
  /** Open when the run ended. */
  open: number;
}

/** The log line of a run's connections: `connections: 18 reused, 2 opened (1 reopened after a drop), 20 open`. */
export function describeKeptRun(s: KeptRunStats): string {
  const reopened = s.reopened ? ` (${s.reopened} reopened after a drop)` : '';
  const closed = s.closed ? `, ${s.closed} closed by the limits` : '';
  return `connections: ${s.reused} reused${reopened}, ${s.opened} opened${closed}, ${s.open} kept open`;
}

interface Entry extends KeptEntry {
  /** The inventory's connection settings the connection was opened with. */
  readonly spec: string;
  /** What its probes read, kept as long as the connection is. */
  readonly reads: ReadCache;
}

/**
 * A kept connection's probes go through its kept shell, and answer file reads from what it read
 * before (not one through sudo: its own process per command).
 */
function withKeptShell(c: ExecConnection, reads: ReadCache): ExecConnection {
  if (!(c instanceof SshConnection)) return c;
  return {
    exec: (command, options) => c.exec(command, options),
    probe: (script, options) => c.keptShell().run(script, { timeoutMs: options?.timeoutMs, readOnly: true }),
    reads,
  };
}

/** A host's connection settings as text, to tell whether they changed; a schedule whose inventory did not
 *  change passes the same frozen object every tick (runner/cli/drift-inventory.ts), written out once. */
const specTexts = new WeakMap<object, string>();
function specText(connection: Host['connection']): string {
  let text = specTexts.get(connection);
  if (text === undefined) specTexts.set(connection, (text = JSON.stringify(connection)));
  return text;
}

export class KeptConnections {
  #pool: ConnectionPool | null = null;
  readonly #entries = new Map<string, Entry>();
  /** Reconnect counts at a host's first use in the current run, to count reopened connections. */
  readonly #usedNow = new Map<string, { connection: Promise<SshConnection>; reconnects: number }>();
  #tick = 0;
  #uses = 0;
  #stats: KeptRunStats | null = null;

  constructor(readonly limits: KeepLimits = DEFAULT_KEEP_LIMITS) {}

  get open(): number {
    return this.#entries.size;
  }

  /** What the run since the last call did (null: no run used the connections, e.g. it stopped on bad input). */
  takeRunStats(): KeptRunStats | null {
    const stats = this.#stats;
    this.#stats = null;
    return stats && { ...stats, open: this.#entries.size };
  }

  /** One run's view; `open` makes the pool on the first run (its options then hold for every run). */
  async forRun(open: () => ConnectionPool): Promise<RunConnections> {
    this.#pool ??= open();
    this.#tick++;
    this.#usedNow.clear();
    this.#stats = { reused: 0, opened: 0, reopened: 0, closed: 0, open: 0 };
    await this.#close(idleToClose([...this.#entries.values()], this.#tick, this.limits));
    return {
      shell: (host, secrets) => this.#shell(host, secrets),
      release: (name) => this.#release(name),
      done: () => this.#endRun(),
    };
  }

  /** Closes every connection: the schedule stopped. */
  async closeAll(): Promise<void> {
    this.#entries.clear();
    await this.#pool?.closeAll();
  }

  async #shell(host: Host, secrets: ResolvedSecrets = {}): Promise<ExecConnection> {
    const pool = this.#pool!;
    const spec = specText(host.connection);
    const had = this.#entries.get(host.name);
    if (had && had.spec !== spec) await this.#close([host.name]);
    const kept = this.#entries.has(host.name);
    if (!kept) await this.#close(overCapToClose([...this.#entries.values()], 1, this.limits));
    const reads = (kept && this.#entries.get(host.name)?.reads) || new ReadCache();
    this.#entries.set(host.name, {
      host: host.name,
      lastUse: ++this.#uses,
      lastTick: this.#tick,
      inUse: true,
      spec,
      reads,
    });
    if (!this.#usedNow.has(host.name)) {
      const connection = pool.get(host, secrets);
      const before = kept ? await connection.then((c) => c.reconnects).catch(() => 0) : 0;
      this.#usedNow.set(host.name, { connection, reconnects: before });
      if (kept) this.#stats!.reused++;
      else this.#stats!.opened++;
    }
    try {
      return withKeptShell(await pool.shell(host, secrets), reads);
    } catch (e) {
      // The pool forgot a connect that failed; so does this list (the next run tries again).
      if (!kept) this.#entries.delete(host.name);
      throw e;
    }
  }

  async #release(name: string): Promise<void> {
    const e = this.#entries.get(name);
    if (e) this.#entries.set(name, { ...e, inUse: false });
    // Under the cap (the usual case) nothing to close: no copy of every entry per released host.
    if (this.#entries.size > this.limits.cap)
      await this.#close(overCapToClose([...this.#entries.values()], 0, this.limits));
  }

  async #endRun(): Promise<void> {
    for (const [name, e] of this.#entries) if (e.inUse) this.#entries.set(name, { ...e, inUse: false });
    await this.#close(overCapToClose([...this.#entries.values()], 0, this.limits));
    for (const { connection, reconnects } of this.#usedNow.values()) {
      const now = await connection.then((c) => c.reconnects).catch(() => reconnects);
      this.#stats!.reopened += now - reconnects;
    }
  }

  async #close(hosts: readonly string[]): Promise<void> {
    for (const h of hosts) this.#entries.delete(h);
    if (this.#stats) this.#stats.closed += hosts.length;
    await Promise.all(hosts.map((h) => this.#pool!.release(h)));
  }
}
