// The alert gate against the Prometheus HTTP API double (test/helpers/prometheus-double.ts, a TEST DOUBLE):
// the double's refusals as Prometheus' own, the real fetch client asking it (credentials from the
// environment, masked), and the batch loop (runner/rolling/rollout.ts, a serial run without a cluster)
// pausing before a batch while an alert fires and carrying on when resumed after it cleared.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { alertGateCheck } from '../../runner/rolling/alert-gate/check.js';
import { prometheusAsker, prometheusAuth } from '../../runner/rolling/alert-gate/prometheus-http.js';
import { rollingPolicy } from '../../runner/rolling/policy.js';
import { foldEvent, hostProgress } from '../../runner/rolling/progress.js';
import { runRollout } from '../../runner/rolling/rollout.js';
import { redact } from '../../runner/core/secret.js';
import type { JournalEvent } from '../../runner/state/store.js';
import { firing, type PrometheusState, prometheusDouble } from '../helpers/prometheus-double.js';

async function double(t: ExecutionContext, state: Partial<PrometheusState> = {}) {
  const d = await prometheusDouble(state);
  t.teardown(() => d.close());
  return d;
}

async function answer(url: string, init?: RequestInit) {
  const r = await fetch(url, init);
  const text = await r.text();
  return { status: r.status, body: r.headers.get('content-type') === 'application/json' ? JSON.parse(text) : text };
}

test('the double says no where Prometheus does: bad queries 400 bad_data, other paths 404, other methods 405', async (t) => {
  const d = await double(t, { queries: { 'up == 0': [{ __name__: 'up', job: 'node' }] } });
  const q = (query: string) => `${d.url}/api/v1/query?query=${encodeURIComponent(query)}`;
  const rows = {
    'a query with series': await answer(q('up == 0')),
    'a query for nothing': await answer(q('absent_metric')),
    'a form POST': await answer(`${d.url}/api/v1/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'query=up+%3D%3D+0',
    }),
    'no query': await answer(`${d.url}/api/v1/query`),
    'an empty query': await answer(q(' ')),
    'an unclosed brace': await answer(q('up{job="node"')),
    'a stray parenthesis': await answer(q('sum(up))')),
    'an unknown path': await answer(`${d.url}/api/v1/nothing`),
    'DELETE alerts': await answer(`${d.url}/api/v1/alerts`, { method: 'DELETE' }),
  };
  const bad = (error: string) => ({ status: 400, body: { status: 'error', errorType: 'bad_data', error } });
  const strip = (a: { status: number; body: any }) =>
    a.body?.data?.result ? { status: a.status, series: a.body.data.result.map((r: any) => r.metric) } : a;
  t.deepEqual(Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, strip(v)])), {
    'a query with series': { status: 200, series: [{ __name__: 'up', job: 'node' }] },
    'a query for nothing': { status: 200, series: [] },
    'a form POST': { status: 200, series: [{ __name__: 'up', job: 'node' }] },
    'no query': bad('invalid parameter "query": query must not be empty'),
    'an empty query': bad('invalid parameter "query": unknown position: parse error: no expression found in input'),
    'an unclosed brace': bad('invalid parameter "query": 1:13: parse error: unclosed left brace'),
    'a stray parenthesis': bad('invalid parameter "query": 1:8: parse error: unexpected right parenthesis \')\''),
    'an unknown path': { status: 404, body: '404 page not found\n' },
    'DELETE alerts': { status: 405, body: 'Method Not Allowed\n' },
  });
});

test('the gate asks the double: clear, firing with labels, a bad query and a broken server both hold', async (t) => {
  const d = await double(t);
  const gate = { prometheus: d.url, queries: ['up{job="node"} == 0'], alerts: ['NodeDown'] };
  const check = alertGateCheck(gate, {});
  const verdicts = [await check(1, 3)];
  d.state.alerts = [firing('NodeDown', { instance: 'linux2', severity: 'page' }), firing('Other')];
  verdicts.push(await check(2, 3));
  d.state.alerts = [];
  verdicts.push(await alertGateCheck({ ...gate, queries: ['up{job="node" == 0'] }, {})(2, 3));
  d.state.broken = { status: 503, body: 'Service Unavailable' };
  verdicts.push(await check(2, 3));
  const cant = `Prometheus ${d.url} could not tell (the gate holds until it can)`;
  t.deepEqual(verdicts, [
    { reason: null, note: 'Prometheus: 1 query empty, 1 alert not firing' },
    {
      reason: 'alert gate before batch 2 of 3: alert NodeDown firing {instance="linux2", severity="page"}',
      note: 'alert NodeDown firing {instance="linux2", severity="page"}',
    },
    {
      reason: `alert gate before batch 2 of 3: ${cant}: query \`up{job="node" == 0\`: HTTP 400 bad_data: invalid parameter "query": 1:18: parse error: unclosed left brace`,
      note: `${cant}: query \`up{job="node" == 0\`: HTTP 400 bad_data: invalid parameter "query": 1:18: parse error: unclosed left brace`,
    },
    {
      reason: `alert gate before batch 2 of 3: ${cant}: query \`up{job="node"} == 0\`: HTTP 503, not Prometheus' JSON: Service Unavailable; alert NodeDown: HTTP 503, not Prometheus' JSON: Service Unavailable`,
      note: `${cant}: query \`up{job="node"} == 0\`: HTTP 503, not Prometheus' JSON: Service Unavailable; alert NodeDown: HTTP 503, not Prometheus' JSON: Service Unavailable`,
    },
  ]);
});

test('Prometheus not listening: the gate holds (fails closed), saying so', async (t) => {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  const url = `http://127.0.0.1:${port}`;
  const v = await alertGateCheck({ prometheus: url, queries: [], alerts: ['NodeDown'] }, {})(1, 1);
  t.is(
    v.reason,
    `alert gate before batch 1 of 1: Prometheus ${url} could not tell (the gate holds until it can): alert NodeDown: unreachable (ECONNREFUSED)`,
  );
});

test('credentials come from the environment only, as a bearer token or basic auth, and are masked', async (t) => {
  const d = await double(t);
  const token = 'prom-T0K3N-5e1f';
  const ask = (env: NodeJS.ProcessEnv) => prometheusAsker(d.url, prometheusAuth(env))('api/v1/alerts');
  await ask({ PLAY_PROMETHEUS_TOKEN: token });
  await ask({ PLAY_PROMETHEUS_USER: 'play', PLAY_PROMETHEUS_PASSWORD: 'pa55-word' });
  await ask({});
  t.deepEqual(d.authorizations, [`Bearer ${token}`, `Basic ${Buffer.from('play:pa55-word').toString('base64')}`, '']);
  t.is(redact(`sent Bearer ${token}`), 'sent ********');
  t.is(String(prometheusAuth({ PLAY_PROMETHEUS_TOKEN: token })), '********');
  t.throws(() => prometheusAuth({ PLAY_PROMETHEUS_USER: 'play' }), {
    message:
      'PLAY_PROMETHEUS_PASSWORD is not set: basic auth to Prometheus needs both PLAY_PROMETHEUS_USER and PLAY_PROMETHEUS_PASSWORD',
  });
});

/** A serial run's batch loop (no cluster) over hosts a, b, c, one per batch, with the gate given. */
async function roll(gate: ReturnType<typeof alertGateCheck>, events: JournalEvent[]) {
  const notes: string[] = [];
  const progress = hostProgress(events);
  const end = await runRollout({
    cluster: null,
    policy: rollingPolicy({}, {}, 'test'),
    nodeName: (h) => h,
    async record(host, phase, state, detail, data) {
      const e = {
        runId: 1,
        host,
        phase,
        state,
        at: new Date(0).toISOString(),
        detail: detail ?? null,
        data: (data ?? null) as never,
      };
      events.push(e);
      foldEvent(progress, e);
      if (host === '') notes.push(`${phase} ${state}${detail ? `: ${detail}` : ''}`);
    },
    check: async () => ({ work: true }),
    apply: async () => ({ ok: true, detail: 'changed: d' }),
    reachable: async () => true,
    sleep: async () => {},
    now: () => 0,
    stop: new AbortController().signal,
    batches: [['a'], ['b'], ['c']],
    progress,
    allowedFailures: 0,
    window: null,
    readyAtStart: new Set(),
    alertGate: gate,
  });
  return { end, notes, outcomes: Object.fromEntries([...progress].map(([h, p]) => [h, p.outcome])) };
}

test('the batch loop: an alert firing after the canary pauses the run before batch 2; resumed once it cleared, it finishes', async (t) => {
  const d = await double(t, { alerts: (ask) => (ask === 2 ? [firing('NodeDown', { instance: 'a' })] : []) });
  const gate = alertGateCheck({ prometheus: d.url, queries: [], alerts: ['NodeDown'] }, {});
  const events: JournalEvent[] = ['a', 'b', 'c'].map((h, i) => ({
    runId: 1,
    host: h,
    phase: 'planned',
    state: 'end',
    at: new Date(0).toISOString(),
    detail: null,
    data: { batch: i + 1 },
  }));
  const first = await roll(gate, events);
  t.deepEqual(first.end, {
    status: 'paused',
    reason: 'alert gate before batch 2 of 3: alert NodeDown firing {instance="a"}',
  });
  t.deepEqual(first.outcomes, { a: 'done', b: 'pending', c: 'pending' });
  t.deepEqual(first.notes, [
    'alerts end: Prometheus: 1 alert not firing',
    'batch begin: batch 1 of 3: a (failures so far 0 of 0 allowed)',
    'batch end: 1 done (1 node)',
    'alerts fail: alert NodeDown firing {instance="a"}',
  ]);
  const resumed = await roll(gate, events);
  t.deepEqual(resumed.end, { status: 'done', reason: null });
  t.deepEqual(resumed.outcomes, { a: 'done', b: 'done', c: 'done' });
  t.deepEqual(resumed.notes, [
    'alerts end: Prometheus: 1 alert not firing',
    'batch begin: batch 2 of 3: b (failures so far 0 of 0 allowed)',
    'batch end: 1 done (1 node)',
    'alerts end: Prometheus: 1 alert not firing',
    'batch begin: batch 3 of 3: c (failures so far 0 of 0 allowed)',
    'batch end: 1 done (1 node)',
  ]);
  t.is(d.requests.length, 4, 'asked once before each batch that starts nodes: 1, 2 (paused), 2 again, 3');
});
