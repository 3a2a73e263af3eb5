// The state store's contract, as one suite any backend runs (sqlite.test.ts; a networked backend the
// same): drift runs saved and read back whole, each host's previous judgement, retention; the journal's
// runs and events; the rolling lease refused to a live holder, taken from an expired or gone one, its
// fencing number refusing a holder that lost it, released by any status but running, resumes.
import test, { type ExecutionContext } from 'ava';
import { countItems, type DriftItem, type DriftRun, driftExit, type HostProblem } from '../../runner/drift/model.js';
import {
  type Lease,
  type LeaseClaim,
  LeaseHeldError,
  LeaseLostError,
  type ProcessIdentity,
} from '../../runner/state/lease.js';
import type { JournalEvent, NewRollout, StateStore } from '../../runner/state/store.js';

/** A backend under test: a fresh store per test whose clock the test moves and whose holders' processes it marks gone. */
export type OpenStore = (
  t: ExecutionContext,
  o: { now: () => Date; isGone: (id: ProcessIdentity) => boolean },
) => Promise<StateStore>;

const T0 = Date.parse('2026-11-23T01:00:00.000Z');

function harness(t: ExecutionContext, open: OpenStore) {
  let ms = T0;
  const gone = new Set<number>();
  const clock = {
    advance: (s: number) => {
      ms += s * 1000;
    },
    iso: (s = 0) => new Date(ms + s * 1000).toISOString(),
  };
  const store = open(t, { now: () => new Date(ms), isGone: (id) => gone.has(id.pid) });
  return { store, clock, gone };
}

const identity = (pid: number, host = 'ctl-1'): ProcessIdentity => ({
  host,
  bootId: 'boot-1',
  pidNamespace: 'pid:[4026531836]',
  pid,
  startTicks: '1234',
});
const claim = (pid: number, ttlMs = 30_000, host = 'ctl-1'): LeaseClaim => ({
  token: `token-${pid}-${host}`,
  identity: identity(pid, host),
  ttlMs,
});
const newRun = (inventoryKey = 'inv:lab', playbook = 'hotfix-windows'): NewRollout => ({
  playbook,
  inventoryKey,
  args: { limit: 'win*', policy: { serial: [1, '25%'] }, extraVars: [] },
  startedAt: '2026-11-23T00:59:00.000Z',
});
const event = (runId: number, host: string, phase: string, state: JournalEvent['state'], s: number): JournalEvent => ({
  runId,
  host,
  phase,
  state,
  at: new Date(T0 + s * 1000).toISOString(),
  detail: null,
  data: host === '' ? { batch: 1 } : null,
});

const item = (host: string, task: string, status: DriftItem['status'], playbook = 'tor-gateway'): DriftItem => ({
  host,
  playbook,
  task,
  kind: 'linux.file',
  title: `file of ${task}`,
  action: 'update',
  fields: ['content'],
  before: { content: 'a' },
  after: { content: '********' },
  status,
  firstSeen: '2026-11-23T10:00:00.000Z',
});

export function driftRun(
  at: string,
  hosts: string[],
  items: DriftItem[],
  problems: HostProblem[] = [],
  playbooks = ['tor-gateway'],
): Omit<DriftRun, 'id'> {
  const counts = countItems(items, problems);
  return {
    startedAt: at,
    durationMs: 1200,
    playbooks,
    inventory: 'lab',
    hosts,
    items,
    problems,
    counts,
    exitCode: driftExit(counts),
    warnings: [],
  };
}

export function storeSuite(backend: string, open: OpenStore): void {
  const it = (title: string, fn: (t: ExecutionContext) => Promise<void>) => test(`${backend}: ${title}`, fn);

  it('drift: a run is saved with an increasing id and read back whole; list is newest first, without items', async (t) => {
    const { store } = harness(t, open);
    const s = await store;
    const a = await s.drift.save(driftRun('2026-11-23T10:00:00.000Z', ['tor1', 'tor2'], [item('tor2', 'conf', 'new')]));
    const b = await s.drift.save(driftRun('2026-11-23T11:00:00.000Z', ['tor1', 'tor2'], []));
    t.deepEqual([a.id, b.id], [1, 2]);
    t.deepEqual(await s.drift.get(1), a);
    t.deepEqual(await s.drift.latest(), b);
    const { items: _, ...summary } = b;
    t.deepEqual(await s.drift.list(1), [summary]);
    t.is(await s.drift.get(99), null);
    await s.drift.setNotifyError(1, 'webhook https://hooks.example.com/… answered 500');
    t.is((await s.drift.get(1))?.notifyError, 'webhook https://hooks.example.com/… answered 500');
  });

  it("drift: previous items are each host's newest judgement; unreachable runs and resolved items do not count", async (t) => {
    const s = await harness(t, open).store;
    await s.drift.save(
      driftRun('2026-11-23T10:00:00.000Z', ['tor1', 'tor2'], [item('tor1', 'a', 'new'), item('tor2', 'b', 'new')]),
    );
    // tor2 unreachable in the second run: its judgement stays the first run's.
    await s.drift.save(
      driftRun(
        '2026-11-23T11:00:00.000Z',
        ['tor1', 'tor2'],
        [item('tor1', 'a', 'resolved')],
        [{ host: 'tor2', kind: 'unreachable', message: 'timed out' }],
      ),
    );
    t.deepEqual(
      (await s.drift.previousItems(['tor1', 'tor2'], ['tor-gateway'])).map((i) => `${i.host}/${i.task}`),
      ['tor2/b'],
    );
    t.deepEqual(await s.drift.previousItems(['tor1', 'tor2'], ['other']), []);
    t.deepEqual(await s.drift.previousItems([], ['tor-gateway']), []);
  });

  it('drift: retention by age and by count removes runs with their items', async (t) => {
    const s = await harness(t, open).store;
    for (const day of [20, 21, 22, 23])
      await s.drift.save(driftRun(`2026-11-${day}T10:00:00.000Z`, ['tor1'], [item('tor1', 'a', 'new')]));
    t.is(await s.drift.prune({ olderThan: new Date('2026-11-21T12:00:00.000Z') }), 2);
    t.deepEqual(
      (await s.drift.list(10)).map((r) => r.id),
      [4, 3],
    );
    t.is(await s.drift.prune({ keepCount: 1 }), 1);
    t.deepEqual(
      (await s.drift.list(10)).map((r) => r.id),
      [4],
    );
    t.is(await s.drift.prune({ keepCount: 5 }), 0);
    t.is(await s.drift.get(3), null);
  });

  it('journal: a run begins running under a lease of fence 1; its events come back in order; list and latestUnfinished', async (t) => {
    const { store, clock } = harness(t, open);
    const s = await store;
    const { run, lease } = await s.rollouts.begin(newRun(), claim(4242));
    t.deepEqual(run, {
      id: 1,
      ...newRun(),
      status: 'running',
      reason: null,
      updatedAt: clock.iso(),
      pid: 4242,
      controller: 'ctl-1',
    });
    t.deepEqual(lease, {
      key: 'inv:lab',
      runId: 1,
      token: 'token-4242-ctl-1',
      identity: identity(4242),
      fence: 1,
      acquiredAt: clock.iso(),
      heartbeatAt: clock.iso(),
      expiresAt: clock.iso(30),
      ttlMs: 30_000,
      released: false,
    } satisfies Lease);
    const events = [
      event(1, '', 'batch', 'begin', 1),
      event(1, 'node009', 'cordon', 'begin', 2),
      event(1, 'node009', 'cordon', 'end', 3),
    ];
    for (const e of events) await s.rollouts.record(lease, e);
    t.deepEqual(await s.rollouts.events(1), events);
    t.deepEqual(await s.rollouts.events(99), []);
    const other = await s.rollouts.begin(newRun('inv:other', 'windows-node'), claim(5151));
    t.deepEqual(
      (await s.rollouts.list(10)).map((r) => r.id),
      [2, 1],
    );
    t.deepEqual(await s.rollouts.latestUnfinished('inv:lab'), run);
    t.is(await s.rollouts.latestUnfinished('inv:lab', 'windows-node'), null);
    await s.rollouts.setStatus(other.lease, 'done');
    t.is(await s.rollouts.latestUnfinished('inv:other'), null);
    t.is((await s.rollouts.get(2))?.status, 'done');
    t.is(await s.rollouts.get(99), null);
  });

  it('lease: a second run on the inventory is refused while the holder renews it, naming the holder; another inventory is free', async (t) => {
    const { store, clock } = harness(t, open);
    const s = await store;
    const { lease } = await s.rollouts.begin(newRun(), claim(4242));
    clock.advance(25);
    const renewed = await s.rollouts.renew(lease);
    t.is(renewed.expiresAt, clock.iso(30));
    clock.advance(25);
    const e = await t.throwsAsync(s.rollouts.begin(newRun(), claim(7777, 30_000, 'ctl-2')), {
      instanceOf: LeaseHeldError,
    });
    t.is(e?.exitCode, 69);
    t.regex(e?.message ?? '', /run 1 \(hotfix-windows\), pid 4242 on ctl-1, last heartbeat 2026-11-23T01:00:25\.000Z/);
    await t.notThrowsAsync(s.rollouts.begin(newRun('inv:other'), claim(7777, 30_000, 'ctl-2')));
  });

  it('lease: an expired lease is taken over with the next fence; the old holder then writes nothing and cannot renew', async (t) => {
    const { store, clock } = harness(t, open);
    const s = await store;
    const a = await s.rollouts.begin(newRun(), claim(4242));
    await s.rollouts.record(a.lease, event(1, 'node009', 'drain', 'begin', 1));
    clock.advance(31);
    const b = await s.rollouts.takeOver(1, claim(7777, 30_000, 'ctl-2'));
    t.is(b.lease.fence, 2);
    t.like(b.run, { id: 1, status: 'running', pid: 7777, controller: 'ctl-2' });
    const stale = await t.throwsAsync(s.rollouts.record(a.lease, event(1, 'node009', 'drain', 'end', 40)), {
      instanceOf: LeaseLostError,
    });
    t.regex(stale?.message ?? '', /run 1 lost its rolling lease: run 1 holds it now \(pid 7777 on ctl-2/);
    await t.throwsAsync(s.rollouts.renew(a.lease), { instanceOf: LeaseLostError });
    await t.throwsAsync(s.rollouts.setStatus(a.lease, 'done'), { instanceOf: LeaseLostError });
    await s.rollouts.record(b.lease, event(1, 'node009', 'drain', 'begin', 41));
    const journal = await s.rollouts.events(1);
    t.deepEqual(
      journal.map((e) => `${e.host} ${e.phase} ${e.state}`),
      ['node009 drain begin', ' lock note', 'node009 drain begin'],
    );
    t.regex(
      journal[1]?.detail ?? '',
      /took over the rolling lease of run 1 \(pid 4242 on ctl-1, fence 1\): its last heartbeat/,
    );
    t.is((await s.rollouts.get(1))?.status, 'running');
  });

  it('lease: a holder whose process is gone is taken over before expiry; a live one is not, even with the same pid elsewhere', async (t) => {
    const { store, gone } = harness(t, open);
    const s = await store;
    await s.rollouts.begin(newRun(), claim(4242));
    await t.throwsAsync(s.rollouts.begin(newRun(), claim(4242, 30_000, 'ctl-2')), { instanceOf: LeaseHeldError });
    gone.add(4242);
    const b = await s.rollouts.begin(newRun(), claim(5151));
    t.is(b.lease.fence, 2);
    t.regex((await s.rollouts.events(2))[0]?.detail ?? '', /that process is gone/);
    t.is((await s.rollouts.get(1))?.status, 'running');
  });

  it('lease: released by any status but running, and by unlock; fences never repeat', async (t) => {
    const s = await harness(t, open).store;
    const a = await s.rollouts.begin(newRun(), claim(4242));
    await s.rollouts.setStatus(a.lease, 'running');
    await t.throwsAsync(s.rollouts.begin(newRun(), claim(5151)), { instanceOf: LeaseHeldError });
    await s.rollouts.setStatus(a.lease, 'paused', 'outside the maintenance window');
    t.like(await s.rollouts.lease('inv:lab'), { released: true, fence: 1 });
    const b = await s.rollouts.begin(newRun(), claim(5151));
    t.is(b.lease.fence, 2);
    t.true(await s.rollouts.unlock(b.run.id));
    t.false(await s.rollouts.unlock(b.run.id));
    const c = await s.rollouts.takeOver(1, claim(6161));
    t.is(c.lease.fence, 3);
    t.like(c.run, { status: 'running', reason: null });
    await t.throwsAsync(s.rollouts.record(b.lease, event(2, '', 'batch', 'begin', 1)), { instanceOf: LeaseLostError });
  });

  it('takeOver of a finished or unknown run is refused naming it (exit 65)', async (t) => {
    const s = await harness(t, open).store;
    const a = await s.rollouts.begin(newRun(), claim(4242));
    await s.rollouts.setStatus(a.lease, 'done');
    const done = await t.throwsAsync(s.rollouts.takeOver(1, claim(5151)));
    t.is((done as { exitCode?: number }).exitCode, 65);
    t.regex(done?.message ?? '', /rolling run 1 \(hotfix-windows\) is done: only a .* run can be resumed/);
    const none = await t.throwsAsync(s.rollouts.takeOver(9, claim(5151)));
    t.regex(none?.message ?? '', /no rolling run 9 in the state store/);
  });

  it('quarantine: KBs added (a newer record replaces one), listed oldest first, released once', async (t) => {
    const s = await harness(t, open).store;
    const entry = (kb: string, at: string, host: string) => ({
      kb,
      packageName: `Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7`,
      host,
      runId: 3,
      playbook: 'hotfix-windows',
      reason: `node ${host} not Ready 30s after its tasks`,
      at,
    });
    t.deepEqual(await s.quarantine.list(), []);
    await s.quarantine.add(entry('KB4561608', '2026-11-23T02:00:00.000Z', 'node013'));
    await s.quarantine.add(entry('kb4551853', '2026-11-23T01:00:00.000Z', 'node012'));
    await s.quarantine.add(entry('KB4561608', '2026-11-23T03:00:00.000Z', 'node014'));
    t.deepEqual(await s.quarantine.list(), [
      entry('KB4551853', '2026-11-23T01:00:00.000Z', 'node012'),
      entry('KB4561608', '2026-11-23T03:00:00.000Z', 'node014'),
    ]);
    t.deepEqual(await s.quarantine.release('kb4551853'), entry('KB4551853', '2026-11-23T01:00:00.000Z', 'node012'));
    t.is(await s.quarantine.release('KB4551853'), null);
    t.deepEqual(
      (await s.quarantine.list()).map((q) => q.kb),
      ['KB4561608'],
    );
  });
}
