// The bench's scheduled drift: `play drift --every 1s` for a number of ticks (runs back to back: each
// outlasts the interval), then SIGTERM; each tick's duration from the run records of its own store
// (`play drift history --json`). Run with connections kept between ticks (the default) and with none
// kept (PLAY_KEEP_CONNECTIONS=0: each tick connects anew, as before), tick 1 against ticks 2..N.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';

export interface LoopTiming {
  /** Each tick's duration (ms), in order. */
  ticks: number[];
  /** The loop's connection lines (`connections: 150 reused, ...`), one per tick. */
  connections: string[];
  /** The loop process's CPU ms (user + system) from the end of tick 1 to the end of the last, per tick,
   *  and its peak RSS (KB): a later tick's cost to the controller. */
  laterTickCpuMs: number;
  peakRssKb: number;
}

/** /proc/PID/stat's utime + stime in ms (USER_HZ is 100 on Linux), and VmHWM in KB. */
function processCpu(pid: number): { cpuMs: number; hwmKb: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const hwm = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuMs: (Number(fields[11]) + Number(fields[12])) * 10, hwmKb: Number(hwm?.[1] ?? 0) };
  } catch {
    return { cpuMs: Number.NaN, hwmKb: 0 };
  }
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
  const samples: { cpuMs: number; hwmKb: number }[] = [];
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  await new Promise<void>((done) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const finished = stderr.match(/run finished/g)?.length ?? 0;
      // Sampled as each tick's end is printed: after tick 1, and after the last.
      if (finished >= 1 && samples.length === 0) samples.push(processCpu(child.pid!));
      // Once: the loop goes on printing until the SIGTERM below lands.
      if (finished >= ticks && samples.length === 1) {
        samples.push(processCpu(child.pid!));
        done();
      }
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
      laterTickCpuMs: samples.length === 2 ? (samples[1]!.cpuMs - samples[0]!.cpuMs) / (ticks - 1) : Number.NaN,
      peakRssKb: samples.at(-1)?.hwmKb ?? 0,
    };
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(state + suffix, { force: true });
  }
}
