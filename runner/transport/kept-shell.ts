// One long-lived /bin/sh on a connection. A command sent as an exec channel costs the host a session
// (sshd's fork, the login shell, `timeout`, /bin/sh): about 4 ms more of a lab host's CPU than the
// same command here (`npx tsx bench/host-cost.ts`). A schedule's kept connections send their probes
// here, and a run sends a host's sh scripts here while the shell is free (ssh-connection.ts).
// Commands run one at a time, each in a subshell (so nothing it sets outlives it), its end framed on
// stdout and stderr by a per-command random nonce. Its input, when it has any, travels in the shell's
// own stream as a here-document decoded by `base64 -d` into the subshell; none reads /dev/null.
//
// A command past its time limit: the shell's process group is killed through a channel of its own
// (the shell is the session's leader, so its pid is the group; root sessions take no `signal`
// request), and the next command opens a new shell. A shell that ended (or never opened) fails its
// command with ShellGone, which says whether the command may have started: one that cannot have
// started may be sent as an exec instead; one that may have is as a command whose connection dropped.
import { base64Lines } from '../core/content-read.js';
import { newNonce } from '../core/nonce.js';
import { quoteSh } from '../core/quote.js';
import type { ExecResult, ShellScriptOptions } from '../core/step.js';
import { longTimeout } from '../core/long-sleep.js';

/** What the shell needs of a channel running `exec /bin/sh`. */
export interface ShellChannel {
  write(data: string): unknown;
  on(event: 'data', listener: (d: Buffer) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  readonly stderr: { on(event: 'data', listener: (d: Buffer) => void): unknown };
  close(): unknown;
}

export interface ShellHost {
  /** Opens a channel running `command` (shellCommand: `exec /bin/sh`, or the same behind a first command). */
  openShell(command: string): Promise<ShellChannel>;
  /** Runs a command on a channel of its own (to kill a stuck shell), best effort. */
  exec(command: string): Promise<unknown>;
  /** The error of a command past its limit, as an exec's would be. */
  timeoutError(timeoutMs: number): Error;
}

export class ShellGone extends Error {
  /** `started`: the shell had begun reading the command (it may have run, in part or whole). */
  constructor(
    message: string,
    readonly started = false,
  ) {
    super(message);
    this.name = 'ShellGone';
  }
}

interface Pending {
  readonly nonce: string;
  /** The start-up's pid report, not a command. */
  readonly startUp: boolean;
  resolve(r: ExecResult): void;
  reject(e: Error): void;
}

/** The end of a command's stdout: its status; of its stderr: the mark. */
const outEnd = (nonce: string) => `\n@@${nonce}@@end `;
const errEnd = (nonce: string) => `\n@@${nonce}@@end\n`;

/**
 * The text that runs `script` in a subshell, with `stdin` (if any) as its input, and `$play_private`
 * set in it (not exported): a fresh random value that, unlike a script sent as an exec, is on no
 * command line, for names no other process can guess (tasks/linux/fs-write.ts).
 */
export function commandText(script: string, nonce: string, stdin?: Buffer): string {
  const body = `(\nplay_private=${newNonce()}\n${script}\n)`;
  if (!stdin || stdin.length === 0) return `${body} </dev/null\n`;
  const lines = base64Lines(stdin);
  const end = `@@${nonce}@@input`;
  return `{\nLC_ALL=C base64 -d 2>/dev/null <<'${end}'\n${lines}${end}\n} | ${body}\n`;
}

class OpenShell {
  #out = '';
  #err = '';
  /** Commands written and not yet answered, in the order the shell runs them; the pid report first. */
  readonly #pending: Pending[] = [];
  #pidSeen = false;
  gone = false;
  readonly pid: Promise<number>;

  /**
   * `start`: the shell's exec request (shellCommand), which holds its pid report when `start.first` is
   * given, and then that first command, already on its way: its result is `start.first`'s.
   */
  constructor(
    readonly channel: ShellChannel,
    start: { pidNonce: string; first?: { nonce: string; resolve(r: ExecResult): void; reject(e: Error): void } },
  ) {
    const nonce = start.pidNonce;
    this.pid = new Promise<number>((resolve, reject) => {
      this.#pending.push({
        nonce,
        startUp: true,
        // Marked, and searched for: a login shell's rc file may print before it (bash reads ~/.bashrc
        // for an sshd session), and that text is this first command's, not a probe's.
        resolve: (r) => {
          const pid = pidReported(r.stdout, nonce);
          if (pid !== undefined) resolve(pid);
          else reject(new ShellGone(`no pid: ${r.stdout.slice(-200)}`));
        },
        reject,
      });
    });
    this.pid.catch(() => undefined);
    if (start.first) this.#pending.push({ ...start.first, startUp: false });
    channel.on('data', (d) => {
      this.#out += d.toString('utf8');
      this.#settle();
    });
    channel.stderr.on('data', (d) => {
      this.#err += d.toString('utf8');
      this.#settle();
    });
    channel.on('close', () => {
      this.gone = true;
      const why = `the kept shell ended${this.#err ? `: ${this.#err.trim().slice(0, 300)}` : ''}`;
      // A command was read only once the shell had reported its pid: the commands follow the report.
      for (const p of this.#pending.splice(0)) p.reject(new ShellGone(why, !p.startUp && this.#pidSeen));
    });
    if (!start.first) channel.write(pidReport(nonce));
  }

  /** Writes the command at once, behind those not answered yet (the first one behind the pid report). */
  run(script: string, stdin?: Buffer): Promise<ExecResult> {
    if (this.gone) return Promise.reject(new ShellGone('the kept shell ended'));
    const nonce = newNonce();
    return new Promise<ExecResult>((resolve, reject) => {
      this.#pending.push({ nonce, startUp: false, resolve, reject });
      this.channel.write(`${commandText(script, nonce, stdin)}${frameEnd(nonce)}`);
    });
  }

  #settle(): void {
    for (;;) {
      const p = this.#pending[0];
      if (!p) return;
      const o = this.#out.indexOf(outEnd(p.nonce));
      const codeEnd = o < 0 ? -1 : this.#out.indexOf('\n', o + outEnd(p.nonce).length);
      const e = this.#err.indexOf(errEnd(p.nonce));
      if (codeEnd < 0 || e < 0) return;
      const result = {
        stdout: this.#out.slice(0, o),
        stderr: this.#err.slice(0, e),
        code: Number(this.#out.slice(o + outEnd(p.nonce).length, codeEnd)),
      };
      this.#out = this.#out.slice(codeEnd + 1);
      this.#err = this.#err.slice(e + errEnd(p.nonce).length);
      this.#pending.shift();
      if (p.startUp) this.#pidSeen = true;
      p.resolve(result);
    }
  }
}

/** The pid in `@@<nonce>@@pid <digits>\n`; indexOf, not a RegExp: a nonce is new for every shell. */
function pidReported(stdout: string, nonce: string): number | undefined {
  const mark = `@@${nonce}@@pid `;
  const at = stdout.indexOf(mark);
  const end = at < 0 ? -1 : stdout.indexOf('\n', at + mark.length);
  const digits = end < 0 ? '' : stdout.slice(at + mark.length, end);
  return /^\d+$/.test(digits) ? Number(digits) : undefined;
}

const pidReport = (nonce: string) => `printf '@@%s@@pid %s\\n' ${nonce} $$\n${frameEnd(nonce)}`;

/**
 * The longest exec request a first command may ride in (bytes, quoted): the request is one argument
 * of the login shell's command line (Linux takes at most 128 KiB for one).
 */
export const RIDE_MAX = 32 * 1024;

/**
 * A kept shell's exec request: `exec /bin/sh`, reading its commands from the channel; or, with `first`
 * (a read-only script), a /bin/sh that reports its pid, runs that script framed as a command written
 * to it would be (in a subshell, reading nothing), and then becomes the same /bin/sh. Why: sshd opens a
 * session with no window until its command has started, so a command written to a new shell waits a
 * network round trip for the exec's answer, where one riding in the request does not. Its text is on
 * the host's command line while it runs: only probes ride (no secret, no private name), and not
 * `$play_private`, which a written command gets.
 */
export function shellCommand(pidNonce: string, first?: { script: string; nonce: string }): string {
  if (!first) return 'exec /bin/sh';
  const text = `${pidReport(pidNonce)}(\n${first.script}\n) </dev/null\n${frameEnd(first.nonce)}exec /bin/sh\n`;
  return `exec /bin/sh -c ${quoteSh(text)}`;
}

function frameEnd(nonce: string): string {
  return `printf '${outEnd(nonce).replace('\n', '\\n')}%s\\n' "$?"\nprintf '${errEnd(nonce).replace(/\n/g, '\\n')}' >&2\n`;
}

/** How a script runs in the kept shell: as a connection's script, its input already bytes. */
export interface KeptRunOptions extends Omit<ShellScriptOptions, 'stdin'> {
  readonly stdin?: Buffer;
}

export class KeptShell {
  #shell: Promise<OpenShell> | null = null;
  /** A shell with a riding command ended before it started: the host's shells open plain from then on. */
  #noRide = false;
  #queue: Promise<unknown> = Promise.resolve();
  #inFlight = 0;

  constructor(private readonly host: ShellHost) {}

  /** No command is queued or running: one sent now starts at once. */
  get idle(): boolean {
    return this.#inFlight === 0;
  }

  /**
   * Runs a script; rejects with ShellGone (`started` false: send it another way) or the host's timeout
   * error.
   */
  run(script: string, options: KeptRunOptions = {}): Promise<ExecResult> {
    this.#inFlight++;
    const next = this.#queue.then(() => this.#runNow(script, options));
    this.#queue = next.catch(() => undefined);
    const settled = () => {
      this.#inFlight--;
    };
    next.then(settled, settled);
    return next;
  }

  close(): void {
    const shell = this.#shell;
    this.#shell = null;
    void shell?.then((s) => s.channel.close()).catch(() => undefined);
  }

  async #runNow(script: string, { timeoutMs, stdin, readOnly = false }: KeptRunOptions): Promise<ExecResult> {
    let shell: OpenShell;
    let ridden: Promise<ExecResult> | null = null;
    try {
      const rides = readOnly && !this.#noRide && !stdin?.length;
      ({ shell, ridden } = await this.#open(rides ? script : undefined));
    } catch (e) {
      this.#shell = null;
      throw e instanceof ShellGone ? e : new ShellGone(`no kept shell: ${(e as Error).message}`);
    }
    // A shell that ended is replaced by the next command's #open.
    let target = shell; // the shell the command runs in, for its time limit to kill
    const result =
      ridden?.catch(async (e) => {
        // Its shell ended before it started (a login shell that cannot parse the request, such as
        // csh's with a quoted newline): the host's shells open plain from now on, this one too.
        if (!(e instanceof ShellGone) || e.started) throw e;
        this.#noRide = true;
        this.#shell = null;
        target = (await this.#open()).shell;
        return target.run(script);
      }) ?? shell.run(script, stdin);
    if (timeoutMs === undefined) return result;
    return new Promise<ExecResult>((resolve, reject) => {
      const cancel = longTimeout(() => {
        reject(this.host.timeoutError(timeoutMs));
        this.#kill(target);
      }, timeoutMs);
      result.then(
        (r) => {
          cancel();
          resolve(r);
        },
        (e: Error) => {
          cancel();
          reject(e);
        },
      );
    });
  }

  /**
   * The open shell, or a new one: its first command written behind its pid report, not after it; or,
   * with `first`, in its exec request (`ridden`: that command's result).
   */
  async #open(first?: string): Promise<{ shell: OpenShell; ridden: Promise<ExecResult> | null }> {
    const current = this.#shell && (await this.#shell.catch(() => null));
    if (current && !current.gone) return { shell: current, ridden: null };
    const pidNonce = newNonce();
    const nonce = newNonce();
    const command = first === undefined ? null : shellCommand(pidNonce, { script: first, nonce });
    if (command === null || Buffer.byteLength(command) > RIDE_MAX) {
      this.#shell = this.host.openShell(shellCommand(pidNonce)).then((channel) => new OpenShell(channel, { pidNonce }));
      return { shell: await this.#shell, ridden: null };
    }
    let settle!: Pick<Pending, 'resolve' | 'reject'>;
    const ridden = new Promise<ExecResult>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.#shell = this.host
      .openShell(command)
      .then((channel) => new OpenShell(channel, { pidNonce, first: { nonce, ...settle } }));
    return { shell: await this.#shell, ridden };
  }

  /** A stuck shell: its process group killed, its channel closed, a new one for the next command. */
  #kill(shell: OpenShell): void {
    this.#shell = null;
    shell.gone = true;
    // A shell stuck before it even reported its pid cannot be killed by it: its channel is closed.
    const noPid = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no pid')), 5000).unref());
    void Promise.race([shell.pid, noPid])
      .then((pid) => this.host.exec(`kill -KILL -- -${pid}`))
      .catch(() => undefined)
      .finally(() => shell.channel.close());
  }
}
