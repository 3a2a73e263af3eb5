// The bench's cost model, pure: the linearity verdict from CPU per added host, the capacity of one
// controller, the tables' cost points (a kept-connection check from a later tick), and the lab-cost
// memory check.
import test from 'ava';
import { capacity, capacityLines, linearity, linearityLines } from '../../bench/cost-model.js';
import type { CostPoint } from '../../bench/cost-model.js';
import { costPoints } from '../../bench/tables.js';
import type { SizeResult } from '../../bench/tables.js';
import { labStageRow, memoryFits } from '../../bench/lab-cost-table.js';
import type { LabStage } from '../../bench/lab-cost-table.js';

const point = (kind: string, size: number, cpuMs: number, wallMs = 0, rssKb = 0): CostPoint => ({
  kind,
  size,
  cpuMs,
  wallMs,
  rssKb,
});

test('linearity: CPU per added host of the last step against the first; the fixed start-up cost drops out', (t) => {
  const points = [
    // 300 ms of start-up, then 4 ms per host, then 5 ms per host: 1.25x.
    point('play idempotent re-run', 20, 380, 0, 60_000),
    point('play idempotent re-run', 150, 900, 0, 70_000),
    point('play idempotent re-run', 1000, 4300, 0, 110_000),
    point('play idempotent re-run', 2000, 9300, 0, 150_000),
    // Per added host doubling: not linear.
    point('play check run', 20, 400),
    point('play check run', 150, 920),
    point('play check run', 1000, 5000),
    // A first step without growth (noise) gives no verdict of linear.
    point('ssh2 floor', 20, 500),
    point('ssh2 floor', 150, 500),
    point('ssh2 floor', 1000, 900),
    // Two sizes: nothing to compare.
    point('play first apply', 20, 500),
    point('play first apply', 150, 1000),
  ];
  const verdicts = linearity(points);
  t.deepEqual(
    verdicts.map((v) => [
      v.kind,
      v.first,
      v.last,
      v.firstMsPerHost,
      v.lastMsPerHost,
      v.ratio,
      v.linear,
      v.lastRssKbPerHost,
    ]),
    [
      ['play idempotent re-run', [20, 150], [1000, 2000], 4, 5, 1.25, true, 40],
      ['play check run', [20, 150], [150, 1000], 4, 4.8, 1.2, true, 0],
      ['ssh2 floor', [20, 150], [150, 1000], 0, 400 / 850, Number.POSITIVE_INFINITY, false, 0],
    ],
  );
  t.deepEqual(linearityLines(verdicts.slice(0, 1)), [
    'linearity: controller CPU ms per added host, first step against the last (linear: at most 1.5x)',
    '  play idempotent re-run             20->150: 4.00      1000->2000: 5.00     1.25x linear (RSS 40 KB per added host)',
  ]);
  // 400 ms over 130 hosts (3.08 per host), then 5,500 over 850 (6.47): 2.1x.
  const doubling = [point('k', 20, 100), point('k', 150, 500), point('k', 1000, 6000)];
  t.deepEqual([linearity(doubling)[0]!.linear, linearity(doubling, 2.2)[0]!.linear], [false, true]);
  t.deepEqual(linearityLines([]), ['linearity: needs three sizes or more (--sizes 20,150,1000)']);
});

test('capacity: hosts per minute from wall time at the largest size, per core from CPU per added host', (t) => {
  const rows = capacity([
    point('play idempotent re-run', 150, 900, 3000, 70_000),
    point('play idempotent re-run', 1000, 4300, 15_000, 110_000),
    point('play check run', 150, 1200, 6000, 80_000),
  ]);
  t.deepEqual(rows, [
    {
      kind: 'play idempotent re-run',
      size: 1000,
      wallMsPerHost: 15,
      cpuMsPerHost: 4,
      hostsPerMinute: 4000,
      hostsPerMinutePerCore: 15_000,
      rssKb: 110_000,
    },
    // One size: the mean CPU per host, start-up included.
    {
      kind: 'play check run',
      size: 150,
      wallMsPerHost: 40,
      cpuMsPerHost: 8,
      hostsPerMinute: 1500,
      hostsPerMinutePerCore: 7500,
      rssKb: 80_000,
    },
  ]);
  t.deepEqual(capacityLines(rows.slice(0, 1), 20), [
    'capacity of one controller (docs/performance.md), at the largest size, 20 hosts at once:',
    '',
    '| run | hosts | wall ms / host | CPU ms / host | hosts / min (wall) | hosts / min / core (CPU) | peak RSS |',
    '|---|---:|---:|---:|---:|---:|---:|',
    '| play idempotent re-run | 1000 | 15.0 | 4.00 | 4000 | 15000 | 107 MB |',
  ]);
});

test('cost points: medians of the runs, the largest RSS, and a later tick of the kept-connection loop', (t) => {
  const m = (ms: number, cpuMs: number, rssKb: number) => ({ ms, cpuMs, rssKb, code: 0, out: '' });
  const result: SizeResult = {
    size: 150,
    floor: [m(7000, 0, 0)],
    ssh2Floor: [m(3000, 1500, 60_000), m(3200, 1400, 61_000), m(2900, 1600, 59_000)],
    tools: { play: { 'idempotent re-run': [m(3600, 2000, 90_000)] } },
    driftLoop: {
      kept: { ticks: [3500, 400, 300, 500], connections: [], laterTickCpuMs: 250, peakRssKb: 95_000 },
      fresh: { ticks: [3500, 3400, 3300, 3500], connections: [], laterTickCpuMs: 1900, peakRssKb: 90_000 },
    },
  };
  t.deepEqual(costPoints([result]), [
    { size: 150, kind: 'ssh2 floor', wallMs: 3000, cpuMs: 1500, rssKb: 61_000 },
    { size: 150, kind: 'play idempotent re-run', wallMs: 3600, cpuMs: 2000, rssKb: 90_000 },
    { size: 150, kind: 'play kept-connection check', wallMs: 400, cpuMs: 250, rssKb: 95_000 },
  ]);
  const noCpu = {
    ...result,
    driftLoop: { ...result.driftLoop!, kept: { ...result.driftLoop!.kept, laterTickCpuMs: Number.NaN } },
  };
  t.deepEqual(
    costPoints([noCpu]).map((p) => p.kind),
    ['ssh2 floor', 'play idempotent re-run'],
  );
});

test('lab cost: a stage as totals and per-host figures; a larger size fits only with the reserve left', (t) => {
  const stage: LabStage = {
    hosts: 500,
    added: 400,
    upMs: 29_600,
    memUsedKb: 1000 * 1024,
    slabKb: 232_000,
    sshdRssKb: 1_623_500,
    sshdPssKb: 625_000,
    fds: 2500,
    mounts: 33_000,
    memAvailableKb: 10_000 * 1024,
  };
  t.deepEqual(labStageRow(stage), ['500', '29.6 (400)', '74', '1000', '2048', '464', '3247', '1250', '5.0', '66']);
  // 2,048 KB per host (MemAvailable's drop beats PSS + slab here); 5,904 MB above the reserve: 2,952 more hosts.
  t.deepEqual(
    [2000, 3452, 3453].map((n) => memoryFits(stage, n, 4096)),
    [true, true, false],
  );
  // A drop in MemAvailable smaller than PSS + slab (others freed memory meanwhile): PSS + slab, 1,714 KB, counts.
  const freedMeanwhile = { ...stage, memUsedKb: -1000 * 1024 };
  t.deepEqual(
    [4027, 4028].map((n) => memoryFits(freedMeanwhile, n, 4096)),
    [true, false],
  );
});
