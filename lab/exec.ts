// Running the machine's tools for the lab: argument arrays through execFile, never a shell line
// with values in it. Plus the preconditions: root, and the tools' Debian packages.
import { execFile, spawn } from 'node:child_process';
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

/** Runs a command; rejects with LabCommandError unless it exits 0 (or `allowFail` is set). */
export function run(
  file: string,
  args: readonly string[],
  options: { allowFail?: boolean; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      file,
      args,
      { encoding: 'utf8', timeout: options.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (!error) return resolvePromise({ code: 0, stdout, stderr });
        const code = typeof error.code === 'number' ? error.code : null;
        if (options.allowFail && code !== null) return resolvePromise({ code, stdout, stderr });
        reject(new LabCommandError([file, ...args], error.code ?? error.signal ?? null, stderr || error.message));
      },
    );
  });
}

/** Runs a command with `input` on its stdin (`ip -batch -`); rejects like run unless it exits 0. */
export function runInput(
  file: string,
  args: readonly string[],
  input: string,
  options: { allowFail?: boolean } = {},
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (code === 0 || (options.allowFail && code !== null))
        return resolvePromise({ code: code ?? 0, stdout, stderr });
      reject(new LabCommandError([file, ...args], code ?? signal ?? null, stderr));
    });
    child.stdin.end(input);
  });
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
