// One long-lived /bin/sh on a kept connection, for the probes of a schedule's later runs. A probe
// sent as an exec channel costs the host a session (sshd's fork, the login shell, `timeout`, /bin/sh:
// about 6 ms of CPU on a lab host, against 0.5 ms here: `npx tsx bench/host-cost.ts`). Only read-only
// scripts come here (probe batches): one at a time, each in a subshell (so nothing it sets outlives
// it) reading /dev/null, its end framed on stdout and stderr by a per-command random nonce.
//
// A command past its time limit: the shell's process group is killed through a channel of its own
// (the shell is the session's leader, so its pid is the group; root sessions take no `signal`
// request), and the next command opens a new shell. A shell that ended (or never opened) fails its
// command with ShellGone: the caller sends it as an exec instead, which is safe as it only reads.
import { randomBytes } from 'node:crypto';
import type { ExecResult } from '../core/step.js';
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
  /** Opens a channel running `exec /bin/sh` on the connection. */
  openShell(): Promise<ShellChannel>;
  /** Runs a command on a channel of its own (to kill a stuck shell), best effort. */
  exec(command: string): Promise<unknown>;
  /** The error of a command past its limit, as an exec's would be. */
  timeoutError(timeoutMs: number): Error;
}

export class ShellGone extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellGone';
  }
}

interface Pending {
  readonly nonce: string;
  resolve(r: ExecResult): void;
  reject(e: Error): void;
}

/** The end of a command's stdout: its status; of its stderr: the mark. */
const outEnd = (nonce: string) => `\n@@${nonce}@@end `;
const errEnd = (nonce: string) => `\n@@${nonce}@@end\n`;

class OpenShell {
  #out = '';
  #err = '';
  #pending: Pending | null = null;
  gone = false;
  readonly pid: Promise<number>;

  constructor(readonly channel: ShellChannel) {
    const nonce = randomBytes(9).toString('hex');
    this.pid = new Promise<number>((resolve, reject) => {
      this.#pending = {
        nonce,
        // Marked, and searched for: a login shell's rc file may print before it (bash reads ~/.bashrc
        // for an sshd session), and that text is this first command's, not a probe's.
        resolve: (r) => {
          const pid = new RegExp(`@@${nonce}@@pid (\\d+)\\n`).exec(r.stdout)?.[1];
          if (pid) resolve(Number(pid));
          else reject(new ShellGone(`no pid: ${r.stdout.slice(-200)}`));
        },
        reject,
      };
    });
    this.pid.catch(() => undefined);
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
      const p = this.#pending;
      this.#pending = null;
      p?.reject(new ShellGone(`the kept shell ended${this.#err ? `: ${this.#err.trim().slice(0, 300)}` : ''}`));
    });
    channel.write(`printf '@@%s@@pid %s\\n' ${nonce} $$\n${frameEnd(nonce)}`);
  }

  run(script: string): Promise<ExecResult> {
    if (this.gone) return Promise.reject(new ShellGone('the kept shell ended'));
    const nonce = randomBytes(9).toString('hex');
    return new Promise<ExecResult>((resolve, reject) => {
      this.#pending = { nonce, resolve, reject };
      this.channel.write(`(\n${script}\n) </dev/null\n${frameEnd(nonce)}`);
    });
  }

  #settle(): void {
    const p = this.#pending;
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
    this.#pending = null;
    p.resolve(result);
  }
}

function frameEnd(nonce: string): string {
  return `printf '${outEnd(nonce).replace('\n', '\\n')}%s\\n' "$?"\nprintf '${errEnd(nonce).replace(/\n/g, '\\n')}' >&2\n`;
}

export class KeptShell {
  #shell: Promise<OpenShell> | null = null;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly host: ShellHost) {}

  /** Runs a read-only script; rejects with ShellGone (send it another way) or the host's timeout error. */
  run(script: string, timeoutMs?: number): Promise<ExecResult> {
    const next = this.#queue.then(() => this.#runNow(script, timeoutMs));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    const shell = this.#shell;
    this.#shell = null;
    void shell?.then((s) => s.channel.close()).catch(() => undefined);
  }

  async #runNow(script: string, timeoutMs?: number): Promise<ExecResult> {
    let shell: OpenShell;
    try {
      shell = await this.#open();
    } catch (e) {
      this.#shell = null;
      throw e instanceof ShellGone ? e : new ShellGone(`no kept shell: ${(e as Error).message}`);
    }
    if (timeoutMs === undefined) return shell.run(script);
    return new Promise<ExecResult>((resolve, reject) => {
      const cancel = longTimeout(() => {
        reject(this.host.timeoutError(timeoutMs));
        this.#kill(shell);
      }, timeoutMs);
      shell.run(script).then(
        (r) => {
          cancel();
          resolve(r);
        },
        (e: Error) => {
          cancel();
          if (shell.gone && this.#shell) this.#shell = null;
          reject(e);
        },
      );
    });
  }

  async #open(): Promise<OpenShell> {
    const current = this.#shell && (await this.#shell.catch(() => null));
    if (current && !current.gone) return current;
    this.#shell = this.host.openShell().then(async (channel) => {
      const shell = new OpenShell(channel);
      await shell.pid;
      return shell;
    });
    return this.#shell;
  }

  /** A stuck shell: its process group killed, its channel closed, a new one for the next command. */
  #kill(shell: OpenShell): void {
    this.#shell = null;
    shell.gone = true;
    void shell.pid
      .then((pid) => this.host.exec(`kill -KILL -- -${pid}`))
      .catch(() => undefined)
      .finally(() => shell.channel.close());
  }
}
