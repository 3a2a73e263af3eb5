// The real PowerShell under the simulated Windows node (a test double's engine, not a double
// itself): one PlayPwshHost process (lab/windows/pwsh-host, .NET hosting the full PowerShell 7.6) with
// one persistent runspace, fed one program at a time over a JSON-line protocol. While a program
// runs, its mock cmdlets and .NET shims call back here; `answer` (the node's Windows surface,
// lab/windows/surface/) replies from the node's model. See lab/windows/pwsh-host/README.md.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { WindowsError } from '../errors.js';
import { stepMockModules } from '../step-simulators.js';

/** PLAY_PWSH_HOST_DIR: another build of the host (its out/ and mock/), to try a change beside the one in use. */
const HOST_DIR =
  process.env.PLAY_PWSH_HOST_DIR?.replace(/\/?$/, '/') ??
  fileURLToPath(new URL('../pwsh-host/', import.meta.url).href.replace('/dist/lab/', '/lab/'));
export const HOST_DLL = `${HOST_DIR}out/PlayPwshHost.dll`;
const MOCK_DIR = `${HOST_DIR}mock/`;

/** What a program printed and how PowerShell exited. */
export interface HostOutput {
  stdout: string;
  /** As text: what the program wrote to stderr itself, then its error records (warnings as WARNING: ...). */
  stderr: string;
  /** What the program wrote to [Console]::Error itself (raw, as powershell.exe passes it on). */
  consoleStderr: string;
  /** PowerShell's stream records in stderr's order: [stream, text], stream 'Error', 'warning' or 'verbose'. */
  streams: [string, string][];
  exitCode: number;
  /** How many times the program called back into the model. */
  callbacks: number;
  /** The host's own measure of the run, in ms. */
  ms: number;
}

export type Program = { script: string; stdin?: string } | { encodedCommand: string; stdin?: string };

/** Answers one callback (op, args) from the model; a WindowsError is the Windows error the program sees. */
export type Surface = (op: string, args: Record<string, unknown>) => unknown;

interface Pending {
  surface: Surface;
  /** A bug in the surface (not a Windows error): the run fails with it once the program ends. */
  bug: Error | null;
}

/** Why the host cannot start, in words a user can act on. */
function missingHost(): string | null {
  if (!existsSync(HOST_DLL))
    return `${HOST_DLL} is not built: run \`npm run build\` (it needs the .NET SDK: dotnet build lab/windows/pwsh-host)`;
  return null;
}

export class PowerShellHost {
  readonly version: string;
  #child: ChildProcessWithoutNullStreams;
  #lines: string[] = [];
  #wake: (() => void) | null = null;
  #queue: Promise<unknown> = Promise.resolve();
  #exited: Promise<number | null>;
  #stderr = '';
  #closed = false;
  #idleUnref = false;

  private constructor(child: ChildProcessWithoutNullStreams, version: string, lines: string[]) {
    this.#child = child;
    this.version = version;
    this.#lines = lines;
    this.#exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  /** Starts a host with every mock module (lab/windows/pwsh-host/mock/*.psm1, the step folders' simulators) and a virtual clock. */
  static async start(): Promise<PowerShellHost> {
    const problem = missingHost();
    if (problem) throw new Error(`the simulated Windows node needs real PowerShell: ${problem}`);
    const modules = [
      ...readdirSync(MOCK_DIR)
        .filter((f) => f.endsWith('.psm1'))
        .sort()
        .map((f) => `${MOCK_DIR}${f}`),
      ...stepMockModules(),
    ].flatMap((m) => ['--module', m]);
    const child = spawn('dotnet', [HOST_DLL, ...modules, '--virtual-clock'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
    });
    const lines: string[] = [];
    let wake: (() => void) | null = null;
    const rl = createInterface({ input: child.stdout });
    let host: PowerShellHost | null = null;
    rl.on('line', (line) => {
      if (host) host.#push(line);
      else {
        lines.push(line);
        wake?.();
      }
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
      if (host) host.#stderr = stderr.slice(-4000);
    });
    child.stdin.on('error', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.once('error', () => undefined);
    while (lines.length === 0) {
      const code = await Promise.race([exited, new Promise<'line'>((r) => (wake = () => r('line')))]);
      if (code !== 'line')
        throw new Error(`PlayPwshHost exited (${String(code)}) before it was ready: ${stderr.trim().slice(-2000)}`);
    }
    const hello = JSON.parse(lines.shift()!) as { ready?: boolean; psVersion?: string };
    if (!hello.ready) throw new Error(`PlayPwshHost did not say it was ready: ${JSON.stringify(hello)}`);
    host = new PowerShellHost(child, hello.psVersion ?? '?', lines);
    host.#stderr = stderr;
    return host;
  }

  #push(line: string): void {
    this.#lines.push(line);
    this.#wake?.();
  }

  async #next(): Promise<Record<string, unknown>> {
    while (this.#lines.length === 0) {
      if (this.#child.exitCode !== null || this.#child.signalCode !== null || this.#closed)
        throw new Error(`PlayPwshHost is gone: ${this.#stderr.trim().slice(-2000)}`);
      const exited = this.#exited.then(() => undefined);
      await Promise.race([exited, new Promise<void>((r) => (this.#wake = r))]);
      this.#wake = null;
    }
    return JSON.parse(this.#lines.shift()!) as Record<string, unknown>;
  }

  #send(message: unknown): void {
    this.#child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Runs a program as `powershell.exe -NoProfile -NonInteractive -Command` would; one at a time. */
  run(program: Program, surface: Surface): Promise<HostOutput> {
    const run = this.#queue.then(() => this.#run(program, surface));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** The PowerShell 5.1 check of a text (Compat51.cs): parse errors and 7-only constructs. */
  check(text: string): Promise<Check> {
    const run = this.#queue.then(async () => {
      this.#hold(true);
      try {
        this.#send({ check: text });
        const reply = await this.#next();
        if (typeof reply.hostError === 'string') throw new Error(`PlayPwshHost: ${reply.hostError}`);
        return reply.check as Check;
      } finally {
        this.#hold(false);
      }
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** While idle, a shared host does not keep this process alive (tests end when their work does). */
  #hold(on: boolean): void {
    if (!this.#idleUnref) return;
    for (const h of [this.#child, this.#child.stdin, this.#child.stdout, this.#child.stderr] as unknown as {
      ref(): void;
      unref(): void;
    }[])
      on ? h.ref() : h.unref();
  }

  /** Let the process exit while this host has nothing to do. */
  unrefWhenIdle(): void {
    this.#idleUnref = true;
    this.#hold(false);
  }

  async #run(program: Program, surface: Surface): Promise<HostOutput> {
    this.#hold(true);
    try {
      return await this.#exchange(program, surface);
    } finally {
      this.#hold(false);
    }
  }

  async #exchange(program: Program, surface: Surface): Promise<HostOutput> {
    const pending: Pending = { surface, bug: null };
    this.#send(program);
    for (;;) {
      const message = await this.#next();
      const callback = message.callback as { op: string; args: Record<string, unknown> } | undefined;
      if (callback) {
        this.#send(await this.#answer(pending, callback.op, callback.args ?? {}));
        continue;
      }
      if (typeof message.hostError === 'string') throw new Error(`PlayPwshHost: ${message.hostError}`);
      if (pending.bug) throw pending.bug;
      return {
        stdout: String(message.stdout ?? ''),
        stderr: String(message.stderr ?? ''),
        consoleStderr: String(message.consoleStderr ?? ''),
        streams: (message.streams as [string, string][] | undefined) ?? [],
        exitCode: Number(message.exitCode ?? 0),
        callbacks: Number(message.callbacks ?? 0),
        ms: Number(message.ms ?? 0),
      };
    }
  }

  async #answer(pending: Pending, op: string, args: Record<string, unknown>): Promise<unknown> {
    try {
      const result = await pending.surface(op, args);
      return { result: result ?? null };
    } catch (e) {
      if (e instanceof WindowsError) return { error: e.message };
      // A bug in the simulator: the program sees an error, and the run fails with the bug itself.
      pending.bug ??= e instanceof Error ? e : new Error(String(e));
      return { error: `simulator bug in ${op}: ${pending.bug.message}` };
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#child.stdin.end();
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), 5000);
    await this.#exited;
    clearTimeout(timer);
  }
}

export interface Check {
  ok: boolean;
  parseErrors: { line: number; column: number; message: string }[];
  problems: { line: number; column: number; construct: string; why: string; text: string }[];
}

let shared: Promise<PowerShellHost> | null = null;

/** One host per process, started on first use (tests run many simulated nodes through it, one program at a time). */
export function sharedPowerShellHost(): Promise<PowerShellHost> {
  shared ??= PowerShellHost.start().then((h) => {
    h.unrefWhenIdle();
    return h;
  });
  return shared;
}
