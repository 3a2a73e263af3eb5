// `npm run bench:drift-store [-- --runs 1000 --hosts 150 --items 3 --events 2000 --state URL|FILE]`: the state
// store after many runs: its size on disk, the time to save a drift run, the time of `play drift history` and
// `play drift show` (the store's list and get, as the commands call them), and a rolling journal's
// writes under a lease (p50 and p99: each is a durable commit). Synthetic runs: each host has `items`
// drifted resources, a third of them resolved and new again in turn. The store is a temp SQLite file, or
// the empty store --state names (a `postgres://` URL: a PostgreSQL database; its size is its play_ tables').
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { countItems, type DriftItem, driftExit } from '../runner/drift/model.js';
import { randomUUID } from 'node:crypto';
import { openStore } from '../runner/state/open-store.js';
import { PostgresConnection } from '../runner/state/postgres/connection.js';
import { isPostgresUrl, postgresTarget } from '../runner/state/postgres/target.js';
import { currentIdentity } from '../runner/state/process-identity.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1000' },
    hosts: { type: 'string', default: '150' },
    items: { type: 'string', default: '3' },
    events: { type: 'string', default: '2000' },
    state: { type: 'string' },
  },
});
const runs = Number(values.runs);
const hosts = Array.from({ length: Number(values.hosts) }, (_, i) => `linux${i + 1}`);
const perHost = Number(values.items);

const dir = values.state ? null : mkdtempSync(join(tmpdir(), 'play-bench-store-'));
const location = values.state ?? join(dir!, 'state.db');
const store = await openStore(location);
if ((await store.drift.latest()) !== null) {
  process.stderr.write(`bench: ${store.location} already holds drift runs: give it an empty store\n`);
  process.exit(64);
}
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
  await store.drift.save({
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
const time = async (f: () => Promise<unknown>) => {
  const s = performance.now();
  await f();
  return performance.now() - s;
};
const historyMs = await time(() => store.drift.list(20));
const showMs = await time(() => store.drift.latest());
const previousMs = await time(() => store.drift.previousItems(hosts, ['tor-gateway']));
const journalMs = await journalWrites(Number(values.events));
await store.close();
const size = isPostgresUrl(location) ? await postgresBytes(location) : statSync(location).size;
if (dir) rmSync(dir, { recursive: true, force: true });
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!;
const median = quantile(saveMs, 0.5);
process.stdout.write(
  [
    `${runs} runs x ${hosts.length} hosts x ${perHost} items (${runs * hosts.length * perHost} item rows), filled in ${fillS.toFixed(1)} s`,
    `store: ${store.location}`,
    '',
    '| what | value |',
    '|---|---|',
    `| store size | ${(size / 1024 / 1024).toFixed(1)} MiB |`,
    `| save one run (median) | ${median.toFixed(1)} ms |`,
    `| drift history (list 20) | ${historyMs.toFixed(1)} ms |`,
    `| drift show latest (${hosts.length * perHost} items) | ${showMs.toFixed(1)} ms |`,
    `| previous judgement of ${hosts.length} hosts (each drift run) | ${previousMs.toFixed(1)} ms |`,
    `| journal write under the lease, p50 / p99 (${journalMs.length} writes) | ${quantile(journalMs, 0.5).toFixed(2)} / ${quantile(journalMs, 0.99).toFixed(2)} ms |`,
    '',
  ].join('\n'),
);

/** `n` journal events of one rolling run, each recorded (fenced, committed) on its own, as a run does. */
async function journalWrites(n: number): Promise<number[]> {
  const claim = { token: randomUUID(), identity: currentIdentity(), ttlMs: 30_000 };
  const { run, lease } = await store.rollouts.begin(
    { playbook: 'hotfix-windows', inventoryKey: 'bench', args: {}, startedAt: new Date().toISOString() },
    claim,
  );
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await store.rollouts.record(lease, {
      runId: run.id,
      host: `node${i % 100}`,
      phase: 'drain',
      state: i % 2 ? 'end' : 'begin',
      at: new Date().toISOString(),
      detail: null,
      data: { batch: 1 + (i % 10) },
    });
    ms.push(performance.now() - s);
  }
  await store.rollouts.setStatus(lease, 'done');
  return ms;
}

/** What play's tables take in the database (rows, indexes and TOAST), as the server counts it. */
async function postgresBytes(url: string): Promise<number> {
  const conn = new PostgresConnection(postgresTarget(url));
  try {
    const [row] = await conn.query(
      'measuring it',
      "SELECT sum(pg_total_relation_size(oid)) AS bytes FROM pg_class WHERE relkind = 'r' AND relname LIKE 'play\\_%'",
    );
    return Number(row!.bytes);
  } finally {
    await conn.close();
  }
}
