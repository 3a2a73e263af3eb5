// The PostgreSQL state store (runner/state/postgres/) on a private server (test/helpers/postgres.ts), one
// fresh database per test: the store contract (store-suite.ts), then what only a shared database has:
// two controllers (two pools) racing for one inventory's lease, fencing between them, the schema created
// once by controllers opening it at once and never by a reader, a newer schema refused, check's
// consistency query, a row held by another session, and backup's refusal. psql is the oracle for what is
// in the database. Connections, passwords and TLS: postgres-connect.test.ts.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import test, { type ExecutionContext } from 'ava';
import { stateCommand } from '../../runner/cli/state-command.js';
import { type LeaseClaim, LeaseHeldError, LeaseLostError } from '../../runner/state/lease.js';
import { openStore } from '../../runner/state/open-store.js';
import { SCHEMA_VERSION } from '../../runner/state/postgres/schema.js';
import type { JournalEvent, NewRollout, StateStore } from '../../runner/state/store.js';
import { postgresForThisFile } from '../helpers/postgres.js';
import { sleep } from '../helpers/wait.js';
import { storeSuite } from './store-suite.js';

const server = postgresForThisFile(test);

storeSuite('postgres', async (t, o) => {
  const store = await openStore(await (await server()).freshUrl(), 'write', o);
  t.teardown(() => store.close());
  return store;
});

/** A fresh database: its name, its URL (with the password) and the same URL as `location` shows it. */
async function fresh() {
  const s = await server();
  const database = await s.createDatabase();
  return { s, database, url: s.url({ database }), location: s.url({ database, password: null }) };
}

/** `n` stores on `url`, each its own pool: as many controllers. */
async function controllers(t: ExecutionContext, url: string, n: number, busyWaitMs?: number): Promise<StateStore[]> {
  const stores = await Promise.all(Array.from({ length: n }, () => openStore(url, 'write', { busyWaitMs })));
  t.teardown(() => Promise.all(stores.map((s) => s.close())));
  return stores;
}

/** A claim whose holder this machine cannot judge (another boot): only expiry frees its lease. */
const claimOf = (pid: number, ttlMs = 30_000, host = 'ctl-a'): LeaseClaim => ({
  token: randomUUID(),
  identity: { host, bootId: 'another-boot', pidNamespace: 'pid:[1]', pid, startTicks: '1' },
  ttlMs,
});
const newRun = (inventoryKey: string): NewRollout => ({
  playbook: 'hotfix-windows',
  inventoryKey,
  args: { limit: 'win*' },
  startedAt: '2026-11-23T00:59:00.000Z',
});
const event = (runId: number, i: number): JournalEvent => ({
  runId,
  host: `node${i}`,
  phase: 'drain',
  state: 'begin',
  at: '2026-11-23T01:00:00.000Z',
  detail: null,
  data: { i },
});

test('two controllers racing begin on one inventory: exactly one wins, 20 times out of 20, and again for an expired lease', async (t) => {
  const { s, database, url } = await fresh();
  const [a, b, c] = await controllers(t, url, 3);
  const race = async (key: string, round: string) => {
    const results = await Promise.allSettled([
      a!.rollouts.begin(newRun(key), claimOf(1000, 30_000, 'ctl-a')),
      b!.rollouts.begin(newRun(key), claimOf(2000, 30_000, 'ctl-b')),
    ]);
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    t.is(won.length, 1, round);
    t.true(lost[0] instanceof LeaseHeldError, `${round}: ${lost[0]?.message}`);
    t.regex(lost[0]?.message ?? '', new RegExp(`run ${won[0]?.run.id} \\(hotfix-windows\\)`), round);
  };
  for (let i = 0; i < 20; i++) await race(`inv:${i}`, `fresh inventory ${i}`);
  t.is(await s.psql('SELECT count(*), min(fence), max(fence) FROM play_rollout_leases', database), '20|1|1');
  // Leases of 1 ms, expired by the database's clock when the two race to take them over.
  for (let i = 0; i < 20; i++) await c!.rollouts.begin(newRun(`inv:expired-${i}`), claimOf(3000, 1, 'ctl-c'));
  await sleep(20);
  for (let i = 0; i < 20; i++) await race(`inv:expired-${i}`, `expired lease ${i}`);
  t.is(
    await s.psql(
      "SELECT count(*), min(fence), max(fence) FROM play_rollout_leases WHERE inventory_key LIKE 'inv:expired-%'",
      database,
    ),
    '20|2|2',
  );
  t.is(await s.psql('SELECT count(*) FROM play_rollout_runs', database), '60');
});

test('fencing across two pools: writes racing a take-over land before it or not at all; then the old holder writes nothing', async (t) => {
  const { s, database, url } = await fresh();
  const [a, b] = await controllers(t, url, 2);
  const { run, lease } = await a!.rollouts.begin(newRun('inv:lab'), claimOf(1000, 1));
  await sleep(20); // its 1 ms lease has expired by the database's clock: B may take the run over
  const writes = Array.from({ length: 30 }, (_, i) => a!.rollouts.record(lease, event(run.id, i)));
  const taken = b!.rollouts.takeOver(run.id, claimOf(2000, 30_000, 'ctl-b'));
  const results = await Promise.allSettled(writes);
  const { lease: bLease } = await taken;
  t.is(bLease.fence, 2);
  for (const r of results)
    if (r.status === 'rejected') t.true(r.reason instanceof LeaseLostError, (r.reason as Error).message);
  const accepted = results.filter((r) => r.status === 'fulfilled').length;
  const fences = async () =>
    (await s.psql(`SELECT fence FROM play_rollout_events WHERE run_id = ${run.id} ORDER BY id`, database)).split('\n');
  t.deepEqual(await fences(), [...Array<string>(accepted).fill('1'), '2'], 'fence 1 only before the take-over note');
  await t.throwsAsync(a!.rollouts.record(lease, event(run.id, 99)), { instanceOf: LeaseLostError });
  await t.throwsAsync(a!.rollouts.renew(lease), { instanceOf: LeaseLostError });
  await t.throwsAsync(a!.rollouts.setStatus(lease, 'done'), { instanceOf: LeaseLostError });
  await b!.rollouts.record(bLease, event(run.id, 100));
  t.deepEqual(await fences(), [...Array<string>(accepted).fill('1'), '2', '2']);
  t.like(await a!.rollouts.get(run.id), { status: 'running', pid: 2000, controller: 'ctl-b' });
});

test("shared schedules: two controllers claim each tick once; a tick waits while another's run goes on", async (t) => {
  const { url } = await fresh();
  const [a, b] = await controllers(t, url, 2);
  const [ca, cb] = [claimOf(1000, 30_000, 'ctl-a'), claimOf(2000, 30_000, 'ctl-b')];
  for (let i = 0; i < 10; i++) {
    const due = `2026-11-23T0${i}:00:00.000Z`;
    const answers = await Promise.all([
      a!.schedules.claim('drift:tor', due, ca),
      b!.schedules.claim('drift:tor', due, cb),
    ]);
    t.is(answers.filter((r) => r === null).length, 1, due);
    const refusal = answers.find((r) => r !== null);
    t.like(refusal, { kind: 'taken' }, due);
    const winner = answers[0] === null ? ([a!, ca] as const) : ([b!, cb] as const);
    if (i < 9) await winner[0].schedules.finish('drift:tor', due, winner[1].token);
  }
  // The last tick's run is still going (not finished, renewed): the next tick is not anyone's yet.
  t.like(await a!.schedules.claim('drift:tor', '2026-11-23T10:00:00.000Z', ca), {
    kind: 'busy',
    dueAt: '2026-11-23T09:00:00.000Z',
  });
  t.is(await a!.schedules.claim('drift:other', '2026-11-23T10:00:00.000Z', ca), null);
});

/** Runs `fn` with this process's clock (new Date(), Date.now) moved by `skewMs`, as on a controller whose clock is off. */
async function withClockSkew<T>(skewMs: number, fn: () => Promise<T>): Promise<T> {
  const RealDate = Date;
  class SkewedDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length) super(...(args as [string]));
      else super(RealDate.now() + skewMs);
    }
    static override now() {
      return RealDate.now() + skewMs;
    }
  }
  globalThis.Date = SkewedDate as DateConstructor;
  try {
    return await fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

const YEAR_MS = 365 * 24 * 3600_000;

// Serial: it moves the process's clock, which no other test may see.
test.serial(
  "time is the database's: controllers whose clocks are a year off stamp and judge leases by the server's",
  async (t) => {
    const { s, url } = await fresh();
    const [behind, ahead] = await controllers(t, url, 2);
    const serverNow = Date.parse(
      await s.psql(`SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`),
    );
    const { lease } = await withClockSkew(-YEAR_MS, () => behind!.rollouts.begin(newRun('inv:lab'), claimOf(1000)));
    t.true(Math.abs(Date.parse(lease.acquiredAt) - serverNow) < YEAR_MS / 2, `${lease.acquiredAt}: the server's time`);
    // A year ahead, the lease looks long expired to this controller; the server says it is held.
    const e = await withClockSkew(YEAR_MS, () =>
      t.throwsAsync(ahead!.rollouts.begin(newRun('inv:lab'), claimOf(2000))),
    );
    t.true(e instanceof LeaseHeldError, e?.message);
  },
);

/** A Writable that keeps what is written to it. */
function sink() {
  const chunks: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { out, text: () => chunks.join('') };
}

test("read mode never creates play's tables; play state migrate does, once, with controllers opening it at once", async (t) => {
  const { s, database, url, location } = await fresh();
  const tables = () => s.psql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'play\\_%'", database);
  t.is(await openStore(url, 'read'), null);
  t.is(await tables(), '0');
  const check = sink();
  await t.throwsAsync(stateCommand({ action: 'check', state: url, json: false }, check.out), {
    message: `state check: no state store at ${location}`,
  });
  const migrate = sink();
  t.is(await stateCommand({ action: 'migrate', state: url, json: false }, migrate.out), 0);
  t.is(migrate.text(), `state store ${location}: schema ${SCHEMA_VERSION}, current\n`);
  t.is(await s.psql("SELECT value FROM play_meta WHERE key = 'schema_version'", database), String(SCHEMA_VERSION));
  const other = await fresh();
  await controllers(t, other.url, 4);
  t.is(
    await other.s.psql("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'play\\_%'", other.database),
    await tables(),
  );
});

test('a store from a newer play is refused (exit 65) naming the database without its password, and left as it was', async (t) => {
  const { s, database, url, location } = await fresh();
  await (await openStore(url)).close();
  await s.psql("UPDATE play_meta SET value = '99' WHERE key = 'schema_version'", database);
  for (const mode of ['read', 'write'] as const) {
    const e = (await t.throwsAsync(openStore(url, mode))) as Error & { exitCode?: number };
    t.is(e.exitCode, 65, mode);
    t.is(
      e.message,
      `state store ${location}: written by a newer play (schema 99, this one reads ${SCHEMA_VERSION}); upgrade play`,
    );
  }
  t.is(await s.psql("SELECT value FROM play_meta WHERE key = 'schema_version'", database), '99');
});

test('check counts runs and names rows that point at no run (written around the foreign keys)', async (t) => {
  const { s, database, url, location } = await fresh();
  const [store] = await controllers(t, url, 1);
  const { run, lease } = await store!.rollouts.begin(newRun('inv:lab'), claimOf(1000));
  await store!.rollouts.record(lease, event(run.id, 1));
  t.deepEqual(await store!.check(), { location, schema: SCHEMA_VERSION, problems: [], driftRuns: 0, rollouts: 1 });
  await s.psql(`SET session_replication_role = replica; DELETE FROM play_rollout_runs WHERE id = ${run.id}`, database);
  t.deepEqual((await store!.check()).problems, [
    'play_rollout_events: 1 row of rolling runs that do not exist',
    `play_rollout_leases: the lease on inv:lab points at rolling run ${run.id}, which does not exist`,
  ]);
});

test('a lease row another session keeps locked: play waits, then says busy (exit 75); nothing is lost', async (t) => {
  const { s, database, url } = await fresh();
  const [store] = await controllers(t, url, 1, 300);
  const { run, lease } = await store!.rollouts.begin(newRun('inv:lab'), claimOf(1000));
  const holder = spawn(
    s.psqlBinary,
    ['-X', '-q', '-h', s.dir, '-p', String(s.port), '-U', 'postgres', '-d', database],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  t.teardown(() => holder.kill('SIGKILL'));
  const ready = new Promise((r) => holder.stdout.once('data', r));
  holder.stdin.write('BEGIN;\nSELECT 1 FROM play_rollout_leases FOR UPDATE;\n\\echo ready\n');
  await ready;
  const e = (await t.throwsAsync(store!.rollouts.renew(lease))) as Error & { exitCode?: number };
  t.is(e.exitCode, 75);
  t.regex(e.message, /stayed locked by another session for 0\.3 s while renewing the rolling lease .*nothing was lost/);
  holder.stdin.end('COMMIT;\n');
  await new Promise((r) => holder.on('close', r));
  await store!.rollouts.record(lease, event(run.id, 1));
  t.is((await store!.rollouts.events(run.id)).length, 1);
});

test('backup is refused with the command that does it (pg_dump), without the password (exit 64)', async (t) => {
  const { url, location } = await fresh();
  const [store] = await controllers(t, url, 1);
  const e = (await t.throwsAsync(store!.backup('/tmp/x.db'))) as Error & { exitCode?: number };
  t.is(e.exitCode, 64);
  t.is(
    e.message,
    `state backup: ${location} is a PostgreSQL store: back it up with pg_dump, which takes a consistent snapshot ` +
      `while others write (pg_dump --table='play_*' --format=custom --file=FILE '${location}')`,
  );
});
