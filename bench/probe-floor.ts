// The ssh2 floor running play's own probe: one unmeasured re-run records the command each host was
// sent (bench/capture-exec.cjs), then bench/ssh2-floor.mjs runs exactly those, one connection per
// host. Against the plain floor (`true`), it shows what the hosts' side of a probe costs: in the lab
// the hosts run on the controller's cores, so their stat, sha256sum and base64 are on the same clock.
// Against play's re-run, it leaves what play's controller adds.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure } from './measure.js';
import type { Measure } from './measure.js';

export async function measureProbeFloor(
  root: string,
  lab: { keyPath: string; knownHostsPath: string },
  addresses: readonly string[],
  playArgs: readonly string[],
  forks: number,
  runs: number,
): Promise<Measure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'play-bench-probe-'));
  try {
    const capture = await measure(
      root,
      ['node', '--require', './bench/capture-exec.cjs', 'bin/play.mjs', ...playArgs, '--no-live'],
      { PLAY_BENCH_CAPTURE: dir },
    );
    const captured = new Set(readdirSync(dir));
    const missing = addresses.filter((a) => !captured.has(a));
    if (capture.code !== 0 || missing.length > 0) {
      throw new Error(
        `the re-run that records play's probes ${capture.code !== 0 ? `exited ${capture.code}` : `sent nothing to ${missing.slice(0, 3).join(', ')}`}:\n${capture.out.slice(-3000)}`,
      );
    }
    const out: Measure[] = [];
    for (let i = 0; i < runs; i++) {
      const m = await measure(root, [
        'node',
        'bench/ssh2-floor.mjs',
        '--scripts',
        dir,
        lab.keyPath,
        lab.knownHostsPath,
        String(forks),
        ...addresses,
      ]);
      if (m.code !== 0) throw new Error(`the ssh2 floor with play's probes failed:\n${m.out.slice(-3000)}`);
      out.push(m);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
