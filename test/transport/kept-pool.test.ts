// Connections kept between the runs of a schedule (runner/transport/kept-pool.ts) against an in-process
// SSH server: reused from run to run, reopened after a drop with the same host key check as a first
// connect, closed when idle or least recently used past the cap; the eviction policy as a pure table;
// and the drift loop's ticks on a simulated clock, one connection for all of them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runOnSchedule } from '../../runner/drift/run/schedule-loop.js';
import type { WaitClock } from '../../runner/core/long-sleep.js';
import { parseSchedule } from '../../runner/drift/schedule.js';
import type { ConnectionSpec, Host } from '../../runner/inventory/model.js';
import { idleToClose, type KeptEntry, overCapToClose } from '../../runner/transport/keep-policy.js';
import { describeKeptRun, KeptConnections, keepLimitsFromEnv } from '../../runner/transport/kept-pool.js';
import { hostKeyName } from '../../runner/transport/known-hosts.js';
import { ConnectionPool } from '../../runner/transport/pool.js';
import { generateKey, tempDir, TestSshServer, writeClientKey } from './helpers/ssh-server.js';

function host(name: string, connection: Partial<ConnectionSpec> & { port: number }): Host {
  return {
    name,
    vars: {},
    groups: ['all'],
    connection: { address: '127.0.0.1', user: 'root', os: 'linux', ...connection },
  };
}

async function setup(t: ExecutionContext, limits = { cap: 10, idleTicks: 2 }) {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const key = writeClientKey(dir);
  const server = await TestSshServer.start({ authorizedKeys: [key.public] });
  t.teardown(() => server.close());
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, `${hostKeyName('127.0.0.1', server.port)} ${server.hostKey.public}\n`);
  const open = () =>
    new ConnectionPool({
      knownHostsFile: knownHosts,
      agentSocket: null,
      defaultKeyFiles: [],
      handshakes: { baseDelayMs: 10 },
    });
  const kept = new KeptConnections(limits);
  t.teardown(() => kept.closeAll());
  const h = (name: string) => host(name, { port: server.port, keyFile: key.path });
  /** One run: `echo` on each host, released as the scheduler releases a host it is done with. */
  const run = async (...names: string[]) => {
    const conns = await kept.forRun(open);
    try {
      const out = await Promise.all(names.map(async (n) => (await (await conns.shell(h(n))).exec(`echo ${n}`)).stdout));
      for (const n of names) await conns.release(n);
      return out;
    } finally {
      await conns.done();
    }
  };
  return { server, knownHosts, kept, open, h, run };
}

const waitFor = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

test('eviction policy: idle past the limit, then least recently used past the cap, never one in use', (t) => {
  const e = (host: string, lastUse: number, lastTick: number, inUse = false): KeptEntry => ({
    host,
    lastUse,
    lastTick,
    inUse,
  });
  const entries = [e('a', 5, 4), e('b', 1, 1), e('c', 3, 2, true), e('d', 2, 3), e('e', 4, 4)];
  const limits = { cap: 3, idleTicks: 2 };
  const table = [
    ['idle at tick 4', idleToClose(entries, 4, limits)],
    ['idle at tick 5', idleToClose(entries, 5, limits)],
    ['idle at tick 6 (c in use)', idleToClose(entries, 6, limits)],
    ['adding 1 over cap 3', overCapToClose(entries, 1, limits)],
    ['adding 0 over cap 3', overCapToClose(entries, 0, limits)],
    ['cap 0: every idle one', overCapToClose(entries, 0, { cap: 0, idleTicks: 2 })],
    ['under the cap', overCapToClose(entries.slice(0, 2), 1, limits)],
    ['all in use: none', overCapToClose([e('x', 1, 1, true), e('y', 2, 1, true)], 1, { cap: 1, idleTicks: 1 })],
  ];
  t.deepEqual(table, [
    ['idle at tick 4', ['b']],
    ['idle at tick 5', ['b']],
    ['idle at tick 6 (c in use)', ['b', 'd']],
    ['adding 1 over cap 3', ['b', 'd', 'e']],
    ['adding 0 over cap 3', ['b', 'd']],
    ['cap 0: every idle one', ['b', 'd', 'e', 'a']],
    ['under the cap', []],
    ['all in use: none', []],
  ]);
});

test('limits from the environment; a bad value names the variable and what it takes (exit 64)', (t) => {
  t.deepEqual(keepLimitsFromEnv({}), { cap: 2000, idleTicks: 3 });
  t.deepEqual(keepLimitsFromEnv({ PLAY_KEEP_CONNECTIONS: '0', PLAY_KEEP_IDLE_TICKS: '1' }), { cap: 0, idleTicks: 1 });
  const bad = [{ PLAY_KEEP_CONNECTIONS: 'many' }, { PLAY_KEEP_CONNECTIONS: '-1' }, { PLAY_KEEP_IDLE_TICKS: '0' }].map(
    (env) => {
      const e = t.throws(() => keepLimitsFromEnv(env)) as Error & { exitCode?: number };
      return [e.message, e.exitCode];
    },
  );
  t.deepEqual(bad, [
    [
      "PLAY_KEEP_CONNECTIONS='many': expected the most connections kept open between runs (0: none), a whole number from 0 to 1000000",
      64,
    ],
    [
      "PLAY_KEEP_CONNECTIONS='-1': expected the most connections kept open between runs (0: none), a whole number from 0 to 1000000",
      64,
    ],
    [
      "PLAY_KEEP_IDLE_TICKS='0': expected the runs a connection may go unused before it is closed, a whole number from 1 to 1000000",
      64,
    ],
  ]);
});

test('runs reuse one connection per host: three runs, one handshake each', async (t) => {
  const { server, kept, run } = await setup(t);
  const stats = [];
  for (let i = 0; i < 3; i++) {
    t.deepEqual(await run('h1', 'h2'), ['h1\n', 'h2\n']);
    stats.push(kept.takeRunStats());
  }
  t.is(server.tcpConnections, 2);
  t.is(server.logins, 2);
  t.deepEqual(stats, [
    { reused: 0, opened: 2, reopened: 0, closed: 0, open: 2 },
    { reused: 2, opened: 0, reopened: 0, closed: 0, open: 2 },
    { reused: 2, opened: 0, reopened: 0, closed: 0, open: 2 },
  ]);
  t.is(describeKeptRun(stats[2]!), 'connections: 2 reused, 0 opened, 2 kept open');
  t.is(kept.takeRunStats(), null, 'no run since');
});

test('a connection lost between runs is reopened on its next use', async (t) => {
  const { server, kept, run } = await setup(t);
  await run('h1');
  kept.takeRunStats();
  server.killConnections();
  await waitFor('the server to drop the connection', () => server.openSockets === 0);
  t.deepEqual(await run('h1'), ['h1\n']);
  const stats = kept.takeRunStats()!;
  t.deepEqual(stats, { reused: 1, opened: 0, reopened: 1, closed: 0, open: 1 });
  t.is(describeKeptRun(stats), 'connections: 1 reused (1 reopened after a drop), 0 opened, 1 kept open');
  t.is(server.logins, 2);
});

test('a changed host key on reopen is refused, with the message of a first connect', async (t) => {
  const { server, knownHosts, kept, open, h, run } = await setup(t);
  await run('h1');
  server.killConnections();
  await waitFor('the server to drop the connection', () => server.openSockets === 0);
  // known_hosts now holds another key for this address:port: the server's key "changed".
  writeFileSync(knownHosts, `${hostKeyName('127.0.0.1', server.port)} ${generateKey().public}\n`);
  const reopen = await t.throwsAsync(run('h1'));
  const fresh = open();
  t.teardown(() => fresh.closeAll());
  const first = await t.throwsAsync(fresh.shell(h('h1')));
  t.is(reopen!.name, 'HandshakeError');
  t.is(reopen!.message, first!.message);
  t.regex(reopen!.message, /host key/i);
  t.is(server.logins, 1, 'no login over the changed key');
  t.is(kept.open, 1);
});

test('the cap closes the least recently used connection first; idle ones close after their ticks', async (t) => {
  const { server, kept, run } = await setup(t, { cap: 2, idleTicks: 1 });
  await run('a', 'b');
  await run('a');
  kept.takeRunStats();
  await run('c', 'a'); // b is the least recently used: closed to make room for c
  t.deepEqual(kept.takeRunStats(), { reused: 1, opened: 1, reopened: 0, closed: 1, open: 2 });
  await run('b'); // now c is the least recently used of a and c
  t.deepEqual(kept.takeRunStats(), { reused: 0, opened: 1, reopened: 0, closed: 1, open: 2 });
  await run('b'); // a: not used for one run before this one, so closed as it starts
  t.deepEqual(kept.takeRunStats(), { reused: 1, opened: 0, reopened: 0, closed: 1, open: 1 });
  t.is(server.tcpConnections, 4, 'a, b, c, and b again');
});

test('the drift loop on a simulated clock: five ticks, one connection', async (t) => {
  const { server, kept, run } = await setup(t);
  let now = Date.parse('2026-11-23T10:00:00.000Z');
  const clock: WaitClock = {
    now: () => now,
    setTimer(fire, ms) {
      const timer = { cleared: false };
      setImmediate(() => {
        if (timer.cleared) return;
        now += ms;
        fire();
      });
      return timer;
    },
    clearTimer: (timer) => {
      (timer as { cleared: boolean }).cleared = true;
    },
  };
  const stop = new AbortController();
  const ticks: { at: string; out: string[]; connections: string }[] = [];
  await runOnSchedule(parseSchedule('1m'), 0, {
    runOnce: async () => {
      const out = await run('h1');
      ticks.push({ at: new Date(now).toISOString(), out, connections: describeKeptRun(kept.takeRunStats()!) });
      if (ticks.length === 5) stop.abort();
      return 0;
    },
    log: () => {},
    stop: stop.signal,
    clock,
  });
  const reused = 'connections: 1 reused, 0 opened, 1 kept open';
  t.deepEqual(ticks, [
    { at: '2026-11-23T10:00:00.000Z', out: ['h1\n'], connections: 'connections: 0 reused, 1 opened, 1 kept open' },
    { at: '2026-11-23T10:01:00.000Z', out: ['h1\n'], connections: reused },
    { at: '2026-11-23T10:02:00.000Z', out: ['h1\n'], connections: reused },
    { at: '2026-11-23T10:03:00.000Z', out: ['h1\n'], connections: reused },
    { at: '2026-11-23T10:04:00.000Z', out: ['h1\n'], connections: reused },
  ]);
  t.is(server.tcpConnections, 1);
  t.is(server.logins, 1);
});
