// Timing one command of the bench: wall time, exit code, output, the peak RSS of the largest process
// it started and the CPU time (user + system) of all of them (getrusage(RUSAGE_CHILDREN) in a small
// python wrapper: Node cannot see its grandchildren's). Each measurement starts once the machine is
// quiet: the lab's hosts run here, and their sshd still closes the previous command's sessions for a
// moment after it exited, which would be counted against the next one.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Measure {
  ms: number;
  rssKb: number;
  /** CPU milliseconds, user and system, of the command and every process it waited for. */
  cpuMs: number;
  code: number;
  out: string;
}

/** All CPUs' busy and total time so far (/proc/stat, USER_HZ): busy is all but idle and iowait. */
function cpuTimes(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 8).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3]! - f[4]!, total };
}

/** Waits until the machine was under 10% busy over 200 ms, for at most 5 s. */
export async function quiet(): Promise<void> {
  for (let waited = 0; waited < 5000; waited += 200) {
    const a = cpuTimes();
    await new Promise((r) => setTimeout(r, 200));
    const b = cpuTimes();
    if (b.total > a.total && (b.busy - a.busy) / (b.total - a.total) < 0.1) return;
  }
}

export async function measure(cwd: string, argv: string[], env: NodeJS.ProcessEnv = {}): Promise<Measure> {
  await quiet();
  const wrapper =
    'import resource,subprocess,sys,time\n' +
    't=time.monotonic(); p=subprocess.run(sys.argv[1:], capture_output=True, text=True); ms=(time.monotonic()-t)*1000\n' +
    'r=resource.getrusage(resource.RUSAGE_CHILDREN)\n' +
    'sys.stdout.write(p.stdout+p.stderr); sys.stderr.write("%d %d %d %d" % (ms, r.ru_maxrss, (r.ru_utime+r.ru_stime)*1000, p.returncode))';
  return new Promise((resolveP, reject) => {
    const child = spawn('python3', ['-c', wrapper, ...argv], { env: { ...process.env, ...env }, cwd });
    let out = '',
      err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', () => {
      const [ms, rss, cpu, code] = err.trim().split(/\s+/).slice(-4).map(Number);
      resolveP({ ms: ms!, rssKb: rss!, cpuMs: cpu!, code: code!, out });
    });
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
