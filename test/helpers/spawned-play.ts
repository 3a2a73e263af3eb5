// `play` as a child process whose output lines a test waits for, as an operator's service manager or a
// standby runs it: the test signals it (SIGKILL, SIGSTOP, SIGTERM) at a point its output names. A wait
// fails as soon as the process ends without what it waited for, not when its time runs out, and
// either way says what the process printed last: an e2e failure on CI must say where the run was.
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from './play.js';
import { waitFor } from './wait.js';

export interface SpawnedPlay {
  child: ChildProcess;
  /** stdout's and stderr's lines, as they came. */
  lines: string[];
  exit: Promise<number | null>;
  /** Set once the process has ended and its output is all in `lines`: `exit N`, or the signal. */
  ended?: string;
}

/** `play ARGS` with `env` over the test's environment (no PLAY_INVENTORY from the caller's shell). */
export function spawnPlay(args: string[], env: NodeJS.ProcessEnv): SpawnedPlay {
  const child = spawn(process.execPath, [resolve(projectRoot, 'bin/play.mjs'), ...args], {
    cwd: projectRoot,
    env: { ...process.env, PLAY_INVENTORY: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run: SpawnedPlay = { child, lines: [], exit: new Promise((r) => child.on('exit', (code) => r(code))) };
  const rests = [child.stdout!, child.stderr!].map((stream) => {
    const rest = { text: '' };
    stream.on('data', (d: Buffer) => {
      const parts = (rest.text + d.toString()).split('\n');
      rest.text = parts.pop()!;
      run.lines.push(...parts);
    });
    return rest;
  });
  child.on('close', (code, signal) => {
    for (const rest of rests) if (rest.text) run.lines.push(rest.text);
    run.ended = signal ?? `exit ${code}`;
  });
  return run;
}

/** Waits until a line of `run`'s output matches `re`. */
export const waitForLine = (
  run: SpawnedPlay,
  what: string,
  re: RegExp,
  ms: number,
  context?: () => string,
): Promise<void> => waitWhileRunning(run, what, () => run.lines.some((l) => re.test(l)), ms, context);

/**
 * Waits for `done` while `run` runs. A run that ends first, or never gets there, fails the wait at once
 * or after `ms`, with its last 40 lines and `context()` (what else the test can say: the nodes, say).
 */
export async function waitWhileRunning(
  run: SpawnedPlay,
  what: string,
  done: () => boolean,
  ms: number,
  context?: () => string,
): Promise<void> {
  try {
    await waitFor(
      what,
      () => {
        if (done()) return true;
        if (run.ended !== undefined) throw new Error(`${what}: the run ended first (${run.ended})`);
        return false;
      },
      ms,
      50,
    );
  } catch (e) {
    const more = context ? `\n${context()}` : '';
    throw new Error(`${(e as Error).message}; the run printed:\n${run.lines.slice(-40).join('\n')}${more}`);
  }
}
