// Why `play lab up|down` failed, as one message a user can act on: the part of the lab that failed (the
// network, a host's sshd, a simulated Windows node, the Kubernetes API double), the cause in a line,
// where that part's log is, and what to do. The lab's steps tag what they do with inPart; labUp and
// labDown turn whatever escapes into a LabFailure (exit 71), so a broken machine is never a stack trace.
// labFailureMessage is pure; inPart and withLabFailure only wrap a promise.
import { join } from 'node:path';
import { PlayError } from '../runner/index.js';
import { withLabLock } from './lock.js';
import { hostPaths, LOCK_FILE, windowsNodePaths } from './paths.js';

/** EX_OSERR: the machine could not give the lab what it needs (README's exit codes). */
export const LAB_FAILURE_EXIT = 71;

/** A part of the lab, as a message names it, and its log when it has one of its own. */
export interface LabPart {
  what: string;
  log?: string;
  /** The host the part belongs to: a cause that starts with `HOST: ` loses that prefix. */
  host?: string;
}

/** The parts of the lab dir `dir`, named as a user knows them. */
export const labParts = {
  whole: (): LabPart => ({ what: 'the lab' }),
  lock: (): LabPart => ({ what: `the lab's lock (${LOCK_FILE})` }),
  network: (): LabPart => ({ what: 'the lab network (bridges, namespaces, veths, routes)' }),
  files: (dir: string): LabPart => ({ what: `the lab's files in ${dir}` }),
  users: (): LabPart => ({ what: "the lab's sudo users" }),
  processes: (): LabPart => ({ what: 'the processes in the lab hosts' }),
  hostFiles: (dir: string, host: string): LabPart => ({
    what: `the files of ${host} (${join(dir, 'hosts', host)})`,
    host,
  }),
  hostEtc: (dir: string, host: string): LabPart => ({
    what: `the /etc overrides of ${host} (${hostPaths(dir, host).etc})`,
    host,
  }),
  sshd: (dir: string, host: string): LabPart => ({ what: `the sshd of ${host}`, log: hostPaths(dir, host).log, host }),
  windows: (dir: string, host: string): LabPart => ({
    what: `the simulated Windows node ${host}`,
    log: windowsNodePaths(dir, host).log,
    host,
  }),
  api: (dir: string): LabPart => ({
    what: 'the Kubernetes API double on control1',
    log: join(dir, 'cluster-api', 'server.log'),
  }),
};

/** A failure inside a part of the lab: carries the part to labFailureMessage. */
export class LabPartError extends Error {
  constructor(
    readonly part: LabPart,
    cause: unknown,
  ) {
    super(`${part.what}: ${causeLine(cause, part.host)}`, { cause });
    this.name = 'LabPartError';
  }
}

/** The lab's error for a user: the one message, exit 71; the original error stays as `cause`. */
export class LabFailure extends PlayError {
  constructor(message: string, cause: unknown) {
    super(message, LAB_FAILURE_EXIT);
    this.cause = cause;
  }
}

/** Runs fn as `part`: an error it throws is tagged with the part (unless a narrower part tagged it first,
 *  or it is already a user's error with its own message and exit code). */
export async function inPart<T>(part: LabPart, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof LabPartError || e instanceof PlayError) throw e;
    throw new LabPartError(part, e);
  }
}

/**
 * `play lab ACTION`'s work under the lab's lock: a failure to take the lock is the lock's, one inside it
 * that no narrower part tagged is the lab's, and either becomes a LabFailure.
 */
export function runLabAction<T>(action: 'up' | 'down', dir: string, work: () => Promise<T>): Promise<T> {
  return withLabFailure(action, dir, () =>
    inPart(labParts.lock(), () => withLabLock(LOCK_FILE, () => inPart(labParts.whole(), work))),
  );
}

/** Runs `play lab ACTION`'s work: whatever escapes it, other than a user's error, becomes a LabFailure. */
export async function withLabFailure<T>(action: 'up' | 'down', dir: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof PlayError) throw e;
    const [part, cause] = e instanceof LabPartError ? [e.part, e.cause] : [labParts.whole(), e];
    throw new LabFailure(labFailureMessage(action, part, cause, dir), cause);
  }
}

/** The message: what failed and why, its log, and what to do, in three lines. */
export function labFailureMessage(action: 'up' | 'down', part: LabPart, error: unknown, dir: string): string {
  const cause = causeLine(error, part.host);
  const last = lastLogLine(error);
  const log = part.log
    ? `log: ${part.log}${last ? ` (last line: ${last})` : ''}`
    : `logs: ${join(dir, 'hosts', 'HOST', 'sshd.log')}, ${join(dir, 'hosts', 'HOST', 'simulator.log')}, ${labParts.api(dir).log}`;
  return [`lab ${action} failed: ${part.what}: ${cause}`, `  ${log}`, `  to fix: ${remedy(action, error)}`].join('\n');
}

const MAX_CAUSE = 300;

/** The cause in one line: the first line of each message down the error's cause chain. */
export function causeLine(error: unknown, host?: string): string {
  const lines: string[] = [];
  for (const e of causeChain(error)) {
    const text = e instanceof Error ? e.message : String(e);
    let first = text.trim().split('\n')[0]!.trim();
    if (host && first.startsWith(`${host}: `)) first = first.slice(host.length + 2);
    if (first && !lines.some((l) => l.includes(first))) lines.push(first);
  }
  const line = lines.join(': ') || (error instanceof Error ? error.name : 'unknown error');
  return line.length > MAX_CAUSE ? `${line.slice(0, MAX_CAUSE - 3)}...` : line;
}

/** The lab's start errors end with their log's last lines (`\nLOG:\nline...`): the last one is often the why. */
function lastLogLine(error: unknown): string | undefined {
  const text = error instanceof Error ? error.message : '';
  const lines = text.trim().split('\n');
  if (lines.length < 3 || !/^\/\S+:$/.test(lines[1]!)) return undefined;
  const last = lines.at(-1)!.trim();
  return last.length > MAX_CAUSE ? `${last.slice(0, MAX_CAUSE - 3)}...` : last;
}

/** Every message of the cause chain, with its errno code, for recognising a cause. */
function chainText(error: unknown): string {
  return causeChain(error)
    .map((e) => (e instanceof Error ? `${e.message} ${(e as NodeJS.ErrnoException).code ?? ''}` : String(e)))
    .join('\n');
}

/** The error and its causes, at most four deep. */
function causeChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e: unknown = error; chain.length < 4 && e !== undefined && e !== null; ) {
    chain.push(e);
    e = e instanceof Error ? e.cause : undefined;
  }
  return chain;
}

const AGAIN: Record<'up' | 'down', string> = {
  up: 'run `play lab down`, then `play lab up`',
  down: 'run `play lab down` again (it removes only what is left); if it fails the same way, remove what it names by hand',
};

/** What to do: what the cause suggests, else the action's own way back. */
function remedy(action: 'up' | 'down', error: unknown): string {
  const text = chainText(error);
  if (/EADDRINUSE|address already in use/i.test(text))
    return `another process holds the address and port: find it with \`ss -ltnp\`, stop it, then ${AGAIN[action]}`;
  const missing = /spawn (\S+) ENOENT/.exec(text)?.[1] ?? /^(\S+) failed \(ENOENT\)/m.exec(text)?.[1];
  if (missing)
    return `${missing} is missing: install the lab's packages with \`bash scripts/install-system.sh\`, then ${AGAIN[action]}`;
  if (/ENOSPC|No space left on device/.test(text)) return `free disk space, then ${AGAIN[action]}`;
  if (/EACCES|EPERM|Operation not permitted|Permission denied/.test(text))
    return `the lab needs root allowed to create network namespaces (outside a restricted container), then ${AGAIN[action]}`;
  if (/another play lab command has held/.test(text))
    return `wait for the other play lab command (its pid is in ${LOCK_FILE}), then run \`play lab ${action}\` again`;
  return AGAIN[action];
}
