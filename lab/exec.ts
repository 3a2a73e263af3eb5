// Running the machine's tools for the lab: argument arrays through spawn, never a shell line with
// values in it. Plus the preconditions: root, and the tools' Debian packages.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { UsageError } from '../runner/index.js';

export class LabCommandError extends Error {
  constructor(
    readonly argv: readonly string[],
    readonly code: number | string | null,
    readonly stderr: string,
  ) {
    super(
      `${argv.join(' ')} failed (${typeof code === 'number' ? `exit ${code}` : (code ?? 'signal')})${stderr ? `: ${stderr.trim().slice(0, 1000)}` : ''}`,
    );
    this.name = 'LabCommandError';
  }
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** How long a child's output may stay open after it exited: a daemon it started (sshd forks one) may
 *  hold the pipes it inherited, and waiting for them to close would wait for the daemon. */
const OUTPUT_GRACE_MS = 1_000;

/**
 * Runs `file` with `input` (or nothing) on its stdin; settles once the child exited and its output
 * ended, or OUTPUT_GRACE_MS after it exited, whichever is first. `timeoutMs` kills the child itself.
 * Rejects with LabCommandError unless it exits 0 (or `allowFail` is set and it exited at all).
 */
function runChild(
  file: string,
  args: readonly string[],
  input: string | null,
  options: { allowFail?: boolean; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { stdio: [input === null ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    let settled = false;
    const timer =
      options.timeoutMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout!.destroy();
      child.stderr!.destroy();
      if (code === 0 || (options.allowFail && code !== null))
        return resolvePromise({ code: code ?? 0, stdout, stderr });
      reject(new LabCommandError([file, ...args], code ?? signal ?? null, stderr));
    };
    child.once('error', (e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new LabCommandError([file, ...args], (e as NodeJS.ErrnoException).code ?? null, e.message));
    });
    child.once('close', settle);
    child.once('exit', (code, signal) => {
      setTimeout(() => settle(code, signal), OUTPUT_GRACE_MS);
    });
    if (input !== null) {
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(input);
    }
  });
}

/** Runs a command; rejects with LabCommandError unless it exits 0 (or `allowFail` is set). */
export function run(
  file: string,
  args: readonly string[],
  options: { allowFail?: boolean; timeoutMs?: number } = {},
): Promise<RunResult> {
  return runChild(file, args, null, { ...options, timeoutMs: options.timeoutMs ?? 30_000 });
}

/** Runs a command with `input` on its stdin (`ip -batch -`); rejects like run unless it exits 0. */
export function runInput(
  file: string,
  args: readonly string[],
  input: string,
  options: { allowFail?: boolean } = {},
): Promise<RunResult> {
  return runChild(file, args, input, options);
}

/** `ip ARGS...` */
export function ip(...args: string[]): Promise<RunResult> {
  return run(IP, args);
}

export const IP = '/usr/sbin/ip';
/** iproute2's `bridge`, for the bridge's forwarding entries. */
export const BRIDGE_TOOL = '/usr/sbin/bridge';
export const SSHD = '/usr/sbin/sshd';
export const SSH_KEYGEN = '/usr/bin/ssh-keygen';
export const UNSHARE = '/usr/bin/unshare';
export const FLOCK = '/usr/bin/flock';
export const SETSID = '/usr/bin/setsid';

const TOOLS: readonly { path: string; pkg: string }[] = [
  { path: IP, pkg: 'iproute2' },
  { path: BRIDGE_TOOL, pkg: 'iproute2' },
  { path: SSHD, pkg: 'openssh-server' },
  { path: SSH_KEYGEN, pkg: 'openssh-client' },
  { path: UNSHARE, pkg: 'util-linux' },
  { path: FLOCK, pkg: 'util-linux' },
  { path: SETSID, pkg: 'util-linux' },
];

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** What stops the lab from running here, said so the user can fix it; undefined when nothing does. */
export function preconditionProblem(
  uid: number | undefined,
  canExec: (path: string) => boolean = executable,
): string | undefined {
  if (uid !== undefined && uid !== 0) {
    return 'play lab needs root: it creates network namespaces, a bridge and one sshd per host (run it with sudo)';
  }
  const missing = TOOLS.filter((t) => !canExec(t.path));
  if (missing.length === 0) return undefined;
  const pkgs = [...new Set(missing.map((t) => t.pkg))];
  return `play lab needs ${missing.map((t) => t.path).join(', ')}: install with \`apt-get install ${pkgs.join(' ')}\``;
}

/** Throws a UsageError when not root or a tool is missing. */
export function checkPreconditions(): void {
  const problem = preconditionProblem(process.getuid?.());
  if (problem) throw new UsageError(problem);
}

/** Runs fn over items with at most `limit` at once; resolves in item order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
