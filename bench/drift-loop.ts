// The bench's scheduled drift: `play drift --every 1s` for a number of ticks (runs back to back: each
// outlasts the interval), then SIGTERM; each tick's duration from the run records of its own store
// (`play drift history --json`). Run with connections kept between ticks (the default) and with none
// kept (PLAY_KEEP_CONNECTIONS=0: each tick connects anew, as before), tick 1 against ticks 2..N.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

export interface LoopTiming {
  /** Each tick's duration (ms), in order. */
  ticks: number[];
  /** The loop's connection lines (`connections: 150 reused, ...`), one per tick. */
  connections: string[];
}

function runPlay(root: string, argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn('node', ['bin/play.mjs', ...argv], { cwd: root, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', fail);
    child.on('close', (code) => (code === 0 ? done(out) : fail(new Error(`play ${argv.join(' ')}: exit ${code}`))));
  });
}

/** `play drift PLAYARGS --every 1s` until `ticks` runs finished; their durations and connection lines. */
export async function measureDriftLoop(
  root: string,
  playArgs: readonly string[],
  ticks: number,
  keep: boolean,
): Promise<LoopTiming> {
  const state = resolve(tmpdir(), `play-bench-loop-${process.pid}-${Date.now()}.db`);
  const env = keep ? {} : { PLAY_KEEP_CONNECTIONS: '0' };
  const child = spawn('node', ['bin/play.mjs', 'drift', ...playArgs, '--state', state, '--every', '1s'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await new Promise<void>((done) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      if ((stderr.match(/run finished/g)?.length ?? 0) >= ticks) done();
    });
    void exited.then(() => done());
  });
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`play drift --every: exit ${code}\n${stderr.slice(-3000)}`);
  try {
    const history = JSON.parse(await runPlay(root, ['drift', 'history', '--state', state, '--json'], {}));
    const runs = (history as { startedAt: string; durationMs: number }[])
      .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt))
      .slice(0, ticks);
    return {
      ticks: runs.map((r) => r.durationMs),
      connections: [...stderr.matchAll(/play drift: (connections: .*)$/gm)].map((m) => m[1]!).slice(0, ticks),
    };
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(state + suffix, { force: true });
  }
}
