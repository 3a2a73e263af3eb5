// The bench's tables: one per size in the README's form, and the scale table across sizes.
import { median } from './measure.js';
import type { Measure } from './measure.js';
import type { LoopTiming } from './drift-loop.js';
import { capacity, capacityLines, linearity, linearityLines } from './cost-model.js';
import type { CostPoint } from './cost-model.js';

export interface SizeResult {
  size: number;
  /** OpenSSH processes: `ssh host true`. */
  floor: Measure[];
  /** One node process, one ssh2 connection and one `true` per host (bench/ssh2-floor.mjs). */
  ssh2Floor: Measure[];
  /** The same, running on each host the probe a play re-run sent it (bench/probe-floor.ts). */
  probeFloor?: Measure[];
  /** ansible (absent beyond --ansible-max) and play: phase -> runs. */
  tools: Partial<Record<'ansible' | 'play', Record<string, Measure[]>>>;
  /** `play drift --every`: connections kept between ticks, and none kept (each tick connects anew). */
  driftLoop?: { kept: LoopTiming; fresh: LoopTiming };
}

const PHASES = ['first apply', 'idempotent re-run', 'check run'];
const seconds = (ms: Measure[]) => (median(ms.map((m) => m.ms)) / 1000).toFixed(2);
const mb = (ms: Measure[]) => {
  const kb = Math.max(...ms.map((m) => m.rssKb));
  return kb ? `${Math.round(kb / 1024)} MB` : '-';
};

export function printSizeTable(r: SizeResult, runs: number, parallel: number, forks: number): void {
  const row = (label: string, ms: Measure[]) =>
    `| ${label.padEnd(40)} | ${seconds(ms).padStart(7)} s | ${mb(ms).padStart(8)} |`;
  console.log(`\n${r.size} hosts, median of ${runs} run(s) (peak RSS: the largest single process)\n`);
  console.log(`| ${'what'.padEnd(40)} |    time   | peak RSS |`);
  console.log(`|${'-'.repeat(42)}|-----------|----------|`);
  console.log(row(`floor: ssh host true (x${r.size}, ${Math.min(parallel, r.size)} at once)`, r.floor));
  console.log(row(`ssh2 floor: connect + true (${Math.min(forks, r.size)} at once)`, r.ssh2Floor));
  if (r.probeFloor) console.log(row("ssh2 floor: connect + play's probe", r.probeFloor));
  for (const phase of PHASES) {
    for (const tool of ['ansible', 'play'] as const) {
      const ms = r.tools[tool]?.[phase];
      if (ms) console.log(row(`${tool}: ${phase}`, ms));
    }
  }
  const m = (tool: 'ansible' | 'play', phase: string) => median(r.tools[tool]![phase]!.map((x) => x.ms));
  const floor = median(r.floor.map((x) => x.ms));
  const ssh2 = median(r.ssh2Floor.map((x) => x.ms));
  const probe = r.probeFloor && median(r.probeFloor.map((x) => x.ms));
  console.log('\nratios:');
  for (const phase of PHASES) {
    const vsAnsible = r.tools.ansible
      ? `ansible/play = ${(m('ansible', phase) / m('play', phase)).toFixed(1)}x   `
      : '';
    const vsProbe = probe ? `   play/probe floor = ${(m('play', phase) / probe).toFixed(2)}x` : '';
    console.log(
      `  ${phase.padEnd(18)} ${vsAnsible}play/floor = ${(m('play', phase) / floor).toFixed(2)}x   play/ssh2 floor = ${(m('play', phase) / ssh2).toFixed(2)}x${vsProbe}`,
    );
  }
  if (probe) console.log(`  ${'probe floor'.padEnd(18)} probe floor/ssh2 floor = ${(probe / ssh2).toFixed(2)}x`);
  // play drift: the check run plus the state store (no Ansible counterpart).
  const drift = r.tools.play?.['drift run'];
  if (drift) {
    console.log(row('play: drift run (check + history store)', drift));
    console.log(
      `  drift run          play drift/check run = ${(m('play', 'drift run') / m('play', 'check run')).toFixed(2)}x`,
    );
  }
}

/** One row per size: the floor, play's three phases and peak RSS, Ansible's where it ran. */
export function printScaleTable(results: readonly SizeResult[], runs: number, parallel: number): void {
  console.log(`\nscale: median of ${runs} run(s); floor = ssh host true, ${parallel} at once\n`);
  console.log(
    '| hosts | floor | ssh2 floor | play first | play re-run | play check | play RSS | ansible first | ansible re-run | ansible check | ansible RSS |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const cells = (tool: 'ansible' | 'play') => {
      const t = r.tools[tool];
      return t ? [...PHASES.map((p) => `${seconds(t[p]!)} s`), mb(Object.values(t).flat())] : ['-', '-', '-', '-'];
    };
    console.log(
      `| ${[r.size, `${seconds(r.floor)} s`, `${seconds(r.ssh2Floor)} s`, ...cells('play'), ...cells('ansible')].join(' | ')} |`,
    );
  }
}

/** Each run kind at each size as the cost model takes it: play's phases and the ssh2 floor (medians of
 *  the runs; RSS the largest), and a kept-connection check (a later tick of `play drift --every`). */
export function costPoints(results: readonly SizeResult[]): CostPoint[] {
  return results.flatMap((r) => {
    const kinds: [string, Measure[]][] = [
      ['ssh2 floor', r.ssh2Floor],
      ...(r.probeFloor ? [['ssh2 floor with probe', r.probeFloor] as [string, Measure[]]] : []),
      ...Object.entries(r.tools.play ?? {}).map(([phase, ms]): [string, Measure[]] => [`play ${phase}`, ms]),
    ];
    const points = kinds.map(([kind, ms]) => ({
      size: r.size,
      kind,
      wallMs: median(ms.map((m) => m.ms)),
      cpuMs: median(ms.map((m) => m.cpuMs)),
      rssKb: Math.max(...ms.map((m) => m.rssKb)),
    }));
    const kept = r.driftLoop?.kept;
    if (kept && Number.isFinite(kept.laterTickCpuMs)) {
      points.push({
        size: r.size,
        kind: 'play kept-connection check',
        wallMs: median(kept.ticks.slice(1)),
        cpuMs: kept.laterTickCpuMs,
        rssKb: kept.peakRssKb,
      });
    }
    return points;
  });
}

/**
 * One controller's cost per host: CPU milliseconds (user + system, the controller's processes only:
 * the lab's sshd run elsewhere in the kernel's accounting) and peak RSS over hosts, for every play
 * run kind and the ssh2 floor; then whether it grows linearly, and the hosts per minute it gives.
 */
export function printCostTable(results: readonly SizeResult[], forks: number): void {
  console.log('\ncontroller cost per host (median CPU of the runs; RSS: the largest process)\n');
  console.log('| hosts | run | CPU ms | CPU ms / host | peak RSS | RSS KB / host |');
  console.log('|---:|---|---:|---:|---:|---:|');
  const points = costPoints(results);
  for (const p of points) {
    console.log(
      `| ${p.size} | ${p.kind} | ${p.cpuMs.toFixed(0)} | ${(p.cpuMs / p.size).toFixed(1)} | ${Math.round(p.rssKb / 1024)} MB | ${(p.rssKb / p.size).toFixed(0)} |`,
    );
  }
  console.log(`\n${linearityLines(linearity(points)).join('\n')}`);
  console.log(`\n${capacityLines(capacity(points), forks).join('\n')}`);
}

/**
 * Scheduled drift (`play drift --every`): tick 1 (connects) against ticks 2..N (the median), with
 * connections kept between ticks and with none kept, each tick's duration from its run record.
 */
export function printDriftLoopTable(results: readonly SizeResult[]): void {
  const measured = results.filter((r) => r.driftLoop);
  if (measured.length === 0) return;
  console.log('\nplay drift --every: tick 1 against the later ticks (each tick: its run record)\n');
  console.log('| hosts | connections | tick 1 | ticks 2.. (median) | later/first | every tick |');
  console.log('|---:|---|---:|---:|---:|---|');
  for (const r of measured) {
    for (const [label, loop] of [
      ['kept', r.driftLoop!.kept],
      ['none kept', r.driftLoop!.fresh],
    ] as const) {
      const [first, ...rest] = loop.ticks;
      const later = median(rest);
      const all = loop.ticks.map((ms) => (ms / 1000).toFixed(2)).join(', ');
      console.log(
        `| ${r.size} | ${label} | ${(first! / 1000).toFixed(2)} s | ${(later / 1000).toFixed(2)} s | ${(later / first!).toFixed(2)}x | ${all} |`,
      );
    }
  }
  const last = measured.at(-1)!.driftLoop!.kept.connections.at(-1);
  if (last) console.log(`\nthe loop's last line of the kept run: ${last}`);
}
