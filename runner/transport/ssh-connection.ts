// One SSH connection to one host, reused by every step. Built on ssh2's Client directly (why not
// node-ssh: ssh-handshake.ts says it, once). At most `maxChannels` commands run at once (sshd's MaxSessions is 10; we keep
// two spare). A connection that dropped is reopened once, with the same host key verification,
// by the next command: Windows hosts drop connections (HNS network changes, reboots). A host behind a
// jump host is (re)connected through it, every time (jump-host.ts).
import type { Client as SshClient } from 'ssh2';
import { isSecret } from '../core/secret.js';
import type { ExecOptions, ExecResult, ShellScriptOptions } from '../core/step.js';
import { ConnectionLostError, TimeoutError } from './errors.js';
import { KeptShell, type ShellChannel, ShellGone } from './kept-shell.js';
import { ChannelNotOpened, runChannel, type Live } from './exec-channel.js';
import type { HandshakeThrottle } from './handshake-throttle.js';
import { Semaphore } from './semaphore.js';
import { handshake, type HandshakeOptions } from './ssh-handshake.js';
import { endpointOf, where, type SshTarget } from './target.js';

/** Waits before retrying a channel the server refused (the command never started). */
const CHANNEL_RETRY_MS = [20, 50, 100, 200, 400];

export interface ConnectionOptions extends HandshakeOptions {
  /** Channels open at once on this connection (default 8). */
  readonly maxChannels?: number;
  /** Shared by all connections of a run: global and per-endpoint handshake limits. */
  readonly throttle: HandshakeThrottle;
  /** The jump host (jump-host.ts) that makes every handshake of this connection, reconnects included. */
  readonly jump?: { handshake(target: SshTarget, options: ConnectionOptions): Promise<SshClient> };
}

export class SshConnection {
  readonly channels: Semaphore;
  /** How many times the connection was reopened after a drop. */
  reconnects = 0;
  /** Channels the server refused and that were asked for again. */
  channelRetries = 0;
  #current: Live | null = null;
  #keptShell: KeptShell | null = null;
  /** The shell would not open, or ended before a script: scripts go as execs. */
  #noShell = false;
  #connecting: Promise<Live> | null = null;
  #closed = false;

  private constructor(
    readonly target: SshTarget,
    private readonly options: ConnectionOptions,
  ) {
    this.channels = new Semaphore(options.maxChannels ?? 8);
  }

  /** Connects (through the throttle, with its retries); rejects with a HandshakeError. */
  static async open(target: SshTarget, options: ConnectionOptions): Promise<SshConnection> {
    const c = new SshConnection(target, options);
    await c.#reconnect(null);
    return c;
  }

  get where(): string {
    return where(this.target);
  }
  get connected(): boolean {
    return this.#current !== null && !this.#current.gone;
  }

  /**
   * Runs a command. Rejects with TimeoutError (the connection stays usable), ConnectionLostError
   * (dropped mid-command), or the HandshakeError of a failed reconnect.
   */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    if (this.#closed) throw new Error(`host ${this.where}: the connection was closed`);
    let live = this.#current;
    let reconnected = false;
    let refusals = 0;
    for (;;) {
      if (!live || live.gone) {
        live = await this.#reconnect(live);
        reconnected = true;
      }
      try {
        return await this.#run(live, command, options);
      } catch (e) {
        // Only a command that never started is retried: running it again cannot run it twice.
        if (!(e instanceof ChannelNotOpened)) throw e;
        if (e.connectionGone) {
          if (reconnected) throw this.#explain(e, refusals);
          live.gone = true;
          continue;
        }
        // sshd frees a session only when it collects the closed channel, after reading the input
        // that closed it; a channel opened in the same read can be refused. It clears in a moment.
        if (refusals >= CHANNEL_RETRY_MS.length) throw this.#explain(e, refusals);
        this.channelRetries++;
        await new Promise((r) => setTimeout(r, CHANNEL_RETRY_MS[refusals++]));
      }
    }
  }

  /** The connected ssh2 Client, reopened after a drop as for a command: what a jump host forwards through. */
  async client(): Promise<SshClient> {
    if (this.#closed)
      throw new ConnectionLostError(this.target.hostName, `host ${this.where}: the connection was closed`);
    const live = this.#current;
    return (live && !live.gone ? live : await this.#reconnect(live)).client;
  }

  /**
   * An sh script through the connection's long-lived shell (kept-shell.ts) while it is free: null when
   * it is busy with another command, its input is a secret (never in the shell's stream: a login shell
   * may keep a here-document in a temporary file), or no shell could be opened: then send it as an
   * exec, as every later script of the connection (a host that will not keep a shell costs one try).
   * A shell that ended while the script ran is a connection lost mid-command.
   */
  async script(text: string, options: ShellScriptOptions = {}): Promise<ExecResult | null> {
    const shell = this.keptShell();
    const stdin = options.stdin;
    if (this.#noShell || !shell.idle || isSecret(stdin)) return null;
    try {
      const input = typeof stdin === 'string' ? Buffer.from(stdin) : stdin;
      return await shell.run(text, { timeoutMs: options.timeoutMs, stdin: input, readOnly: options.readOnly });
    } catch (e) {
      if (!(e instanceof ShellGone)) throw e;
      if (!e.started) {
        this.#noShell = true;
        return null;
      }
      throw new ConnectionLostError(
        this.target.hostName,
        `host ${this.where}: the connection's shell ended while a command ran (${e.message}): whether it had effects is unknown`,
      );
    }
  }

  /** The connection's one long-lived /bin/sh (kept-shell.ts), made on first use. */
  keptShell(): KeptShell {
    this.#keptShell ??= new KeptShell({
      openShell: (command) => this.#openShell(command),
      exec: (command) => this.exec(command, { timeoutMs: 10_000 }),
      timeoutError: (ms) => new TimeoutError(this.target.hostName, ms, this.where),
    });
    return this.#keptShell;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#keptShell?.close();
    await this.#connecting?.catch(() => undefined);
    const live = this.#current;
    if (!live || live.gone) return;
    await new Promise<void>((resolve) => {
      live.client.once('close', () => resolve());
      setTimeout(resolve, 1000).unref();
      live.client.end();
    });
  }

  /** A channel running a kept shell's `command`; it holds one of the connection's channel slots until it closes. */
  async #openShell(command: string): Promise<ShellChannel> {
    if (this.#closed) throw new Error(`host ${this.where}: the connection was closed`);
    const live = this.#current && !this.#current.gone ? this.#current : await this.#reconnect(this.#current);
    const release = await this.channels.acquire();
    return new Promise<ShellChannel>((resolve, reject) => {
      try {
        live.client.exec(command, (err, channel) => {
          if (err) {
            release();
            return reject(err);
          }
          channel.on('close', release);
          resolve(channel);
        });
      } catch (e) {
        release(); // ssh2 throws 'Not connected' when the socket is already gone
        reject(e as Error);
      }
    });
  }

  async #run(live: Live, command: string, options: ExecOptions): Promise<ExecResult> {
    const release = await this.channels.acquire();
    this.options.trace?.(`channel for a command (${this.channels.active} of ${this.channels.limit} in use)`);
    if (live.gone) {
      release();
      throw new ChannelNotOpened(true, 'the connection closed while the command waited for a channel');
    }
    return runChannel(live, {
      hostName: this.target.hostName,
      where: this.where,
      command,
      stdin: options.stdin,
      timeoutMs: options.timeoutMs,
      onDone: release,
    });
  }

  #explain(e: ChannelNotOpened, refusals: number): Error {
    if (e.connectionGone)
      return new ConnectionLostError(
        this.target.hostName,
        `host ${this.where}: the connection was lost before the command started (${e.message})`,
      );
    return new Error(
      `host ${this.where}: the server refused a channel for the command (${e.message}), ${refusals + 1} times; is its MaxSessions below ${this.channels.limit}?`,
    );
  }

  /** Opens a new connection unless another caller already replaced `stale`; concurrent callers share one attempt. */
  #reconnect(stale: Live | null): Promise<Live> {
    const current = this.#current;
    if (current && current !== stale && !current.gone) return Promise.resolve(current);
    const jump = this.options.jump;
    if (stale && !this.#connecting) this.options.trace?.('the connection dropped: reconnecting');
    this.#connecting ??= (
      jump
        ? jump.handshake(this.target, this.options)
        : this.options.throttle.run(endpointOf(this.target), () => handshake(this.target, this.options))
    )
      .then((client) => this.#adopt(client))
      .finally(() => {
        this.#connecting = null;
      });
    return this.#connecting;
  }

  #adopt(client: SshClient): Live {
    const live: Live = { client, gone: false };
    const lost = () => {
      live.gone = true;
    };
    client.on('end', lost).on('close', lost);
    // After the handshake, errors (keepalive timeout, reset) are followed by close: that is what counts.
    client.on('error', () => undefined);
    if (this.#current) {
      this.reconnects++;
      this.options.trace?.(`reconnected (${this.reconnects} since the first connection)`);
    }
    this.#current = live;
    if (this.#closed) client.end();
    return live;
  }
}
