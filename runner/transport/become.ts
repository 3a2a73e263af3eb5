// Becoming another user with sudo on a Linux host (ansible_become), over a connection as an
// unprivileged user. The password never goes on a command line: sudo -S reads it as the first line of
// the command's stdin, and the command gets the rest (sudo reads exactly one line; tried with sudo
// 1.9.13). -k makes sudo ignore any cached credential, so it always reads that line and never hands
// it to the command. Before the first command, one check decides how this host's sudo is used:
// `sudo -k -n true` passing means no password is needed (NOPASSWD, then no password is sent at all);
// otherwise the password is tried once, alone on stdin, so a wrong one fails in one attempt (sudo
// would take the command's own input as further attempts). Its verdict holds for the whole run: a
// refused password fails every step of the host with the same message and is never sent again.
import { RemoteError } from '../core/errors.js';
import { quoteSh } from '../core/quote.js';
import { isSecret, redact, type Secret } from '../core/secret.js';
import type { ExecOptions, ExecResult } from '../core/step.js';
import type { ReadCache } from '../run/read-cache.js';

export interface BecomeTarget {
  readonly hostName: string;
  /** ansible_user: who connects. */
  readonly loginUser: string;
  /** ansible_become_user. */
  readonly user: string;
  readonly password?: Secret;
  /** Where the password comes from (`env:NAME`), for messages. */
  readonly passwordFrom?: string;
}

/** What becoming needs of a connection: the same exec as the host session's. */
export interface ExecConnection {
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** A read-only sh script through the connection's kept shell (kept-shell.ts), where there is one;
   *  rejects with ShellGone when the script must go as an exec. */
  probe?(script: string, options?: ExecOptions): Promise<ExecResult>;
  /** An sh script through the connection's shell while it is free; null: send it as an exec (ssh-connection.ts). */
  script?(script: string, options?: ExecOptions): Promise<ExecResult | null>;
  /** What the connection's earlier probes read (read-cache.ts), where it is kept between runs. */
  readonly reads?: ReadCache;
}

type Mode = { needsPassword: false } | { needsPassword: true; password: Secret };

export class BecomeError extends RemoteError {
  constructor(message: string, detail: string) {
    super(message, null, detail);
    this.name = 'BecomeError';
  }
}

export class SudoConnection implements ExecConnection {
  #mode: Promise<Mode> | null = null;

  constructor(
    private readonly connection: ExecConnection,
    readonly target: BecomeTarget,
  ) {}

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const mode = await (this.#mode ??= this.#decide());
    const sudo = `sudo -k ${mode.needsPassword ? "-S -p ''" : '-n'} -H -u ${quoteSh(this.target.user)} -- `;
    return this.connection.exec(
      sudo + command,
      mode.needsPassword ? { ...options, stdin: withPasswordLine(mode.password, options.stdin) } : options,
    );
  }

  async #decide(): Promise<Mode> {
    const t = this.target;
    const as = `sudo -k -n -u ${quoteSh(t.user)} -- true`;
    const probe = await this.connection.exec(as);
    if (probe.code === 0) return { needsPassword: false };
    const said = lastLine(probe.stderr);
    const who = `host ${t.hostName}: ${t.loginUser} cannot become ${t.user} with sudo`;
    if (!/password is required/i.test(said))
      throw new BecomeError(`${who}: ${said || `sudo exited ${probe.code}`}`, said);
    if (!t.password)
      throw new BecomeError(
        `${who} without a password (${said}): set ansible_become_password, e.g. "{{ lookup('env', 'SUDO_PASS') }}"`,
        said,
      );
    if (t.password.reveal().includes('\n'))
      throw new BecomeError(
        `${who}: the become password${t.passwordFrom ? ` (from ${t.passwordFrom})` : ''} holds a newline, which sudo -S cannot read`,
        '',
      );
    const check = await this.connection.exec(`sudo -k -S -p '' -u ${quoteSh(t.user)} -- true`, {
      stdin: withPasswordLine(t.password),
    });
    if (check.code !== 0) {
      const why = lastLine(check.stderr);
      throw new BecomeError(
        `${who}: sudo refused the become password${t.passwordFrom ? ` (ansible_become_password, from ${t.passwordFrom})` : ''}: ${why || `exit ${check.code}`}`,
        why,
      );
    }
    return { needsPassword: true, password: t.password };
  }
}

function lastLine(text: string): string {
  return redact(text.trim().split('\n').at(-1) ?? '').trim();
}

/** The password as the first line of stdin, then the command's own input (binary-safe). */
function withPasswordLine(password: Secret, stdin?: string | Buffer | Secret): Buffer {
  const rest = stdin === undefined ? '' : isSecret(stdin) ? stdin.reveal() : stdin;
  return Buffer.concat([Buffer.from(`${password.reveal()}\n`), typeof rest === 'string' ? Buffer.from(rest) : rest]);
}
