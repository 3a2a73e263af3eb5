// `npm run bench:drift-store [-- --runs 1000 --hosts 150 --items 3]`: the drift history store after
// many runs: its size on disk, the time to save a run, and the time of `play drift history` and
// `play drift show` (the store's list and get, as the commands call them). Synthetic runs: each host
// has `items` drifted resources, a third of them resolved and new again in turn.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countItems, type DriftItem, driftExit } from '../runner/drift/model.js';
import { openSqliteStore } from '../runner/state/sqlite-store.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    hosts: { type: 'string', default: '150' },
    items: { type: 'string', default: '3' },
  },
});
const runs = Number(values.runs);
const hosts = Array.from({ length: Number(values.hosts) }, (_, i) => `linux${i + 1}`);
const perHost = Number(values.items);

const dir = mkdtempSync(join(tmpdir(), 'play-bench-store-'));
const file = join(dir, 'state.db');
const store = openSqliteStore(file);
const saveMs: number[] = [];
const t0 = performance.now();
for (let r = 0; r < runs; r++) {
  const at = new Date(Date.UTC(2026, 0, 1) + r * 3_600_000).toISOString();
  const items: DriftItem[] = hosts.flatMap((host) =>
    Array.from({ length: perHost }, (_, k) => ({
      host,
      playbook: 'tor-gateway',
      task: `task${k}`,
      kind: 'linux.file',
      title: `file /etc/play/${k}.conf`,
      action: 'update' as const,
      fields: ['content'],
      before: { content: '12 bytes, sha256 0a1b2c3d4e5f' },
      after: { content: '14 bytes, sha256 9f8e7d6c5b4a' },
      status: (k === 0 && r % 2 === 1 ? 'resolved' : r === 0 ? 'new' : 'persisting') as DriftItem['status'],
      firstSeen: '2026-01-01T00:00:00.000Z',
    })),
  );
  const counts = countItems(items, []);
  const s = performance.now();
  store.drift.save({
    startedAt: at,
    durationMs: 1000,
    playbooks: ['tor-gateway'],
    inventory: 'bench',
    hosts,
    items,
    problems: [],
    counts,
    exitCode: driftExit(counts),
    warnings: [],
  });
  saveMs.push(performance.now() - s);
}
const fillS = (performance.now() - t0) / 1000;
const time = (f: () => unknown) => {
  const s = performance.now();
  f();
  return performance.now() - s;
};
const historyMs = time(() => store.drift.list(20));
const showMs = time(() => store.drift.latest());
const previousMs = time(() => store.drift.previousItems(hosts, ['tor-gateway']));
store.close();
const size = statSync(file).size;
rmSync(dir, { recursive: true, force: true });
const median = [...saveMs].sort((a, b) => a - b)[Math.floor(saveMs.length / 2)]!;
process.stdout.write(
  [
    `${runs} runs x ${hosts.length} hosts x ${perHost} items (${runs * hosts.length * perHost} item rows), filled in ${fillS.toFixed(1)} s`,
    '',
    '| what | value |',
    '|---|---|',
    `| store size | ${(size / 1024 / 1024).toFixed(1)} MiB |`,
    `| save one run (median) | ${median.toFixed(1)} ms |`,
    `| drift history (list 20) | ${historyMs.toFixed(1)} ms |`,
    `| drift show latest (${hosts.length * perHost} items) | ${showMs.toFixed(1)} ms |`,
    `| previous judgement of ${hosts.length} hosts (each drift run) | ${previousMs.toFixed(1)} ms |`,
    '',
  ].join('\n'),
);
