// Notifications (runner/drift/notify.ts): a message only when a run has new or resolved items, posted
// to a local HTTP server; retries with backoff on failure, a timeout per attempt, the failure returned
// (never thrown); the message carries masked values only.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { countItems, type DriftItem, type DriftRun, driftExit } from '../../runner/drift/model.js';
import { notificationOf, postNotification } from '../../runner/drift/notify.js';

function item(status: DriftItem['status'], host = 'tor2'): DriftItem {
  return {
    host,
    playbook: 'tor-gateway',
    task: 'config',
    kind: 'linux.file',
    title: 'file /etc/keepalived/keepalived.conf',
    action: 'update',
    fields: ['content'],
    before: { content: '********' },
    after: { content: '********' },
    status,
    firstSeen: '2026-11-23T10:00:00.000Z',
  };
}
function run(items: DriftItem[]): DriftRun {
  const counts = countItems(items, []);
  return {
    id: 7,
    startedAt: '2026-11-23T11:00:00.000Z',
    durationMs: 900,
    playbooks: ['tor-gateway'],
    inventory: 'lab',
    hosts: ['tor2'],
    items,
    problems: [],
    counts,
    exitCode: driftExit(counts),
    warnings: [],
  };
}

async function server(t: ExecutionContext, answer: (n: number, req: IncomingMessage, res: ServerResponse) => void) {
  const bodies: unknown[] = [];
  let n = 0;
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      answer(++n, req, res);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, bodies, attempts: () => n };
}

const noWait = { sleep: async () => {}, timeoutMs: 500 };

/** A URL on a port nothing listens on (taken, then let go). */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/hook`;
}

test('a message only when something changed: new or resolved items, not a repeat of persisting ones', (t) => {
  t.is(notificationOf(run([item('persisting')])), null);
  t.is(notificationOf(run([])), null);
  const m = notificationOf(run([item('new'), item('persisting', 'tor1'), item('resolved', 'tor3')]))!;
  t.is(m.text, 'play drift run 7: 1 new, 1 resolved, 2 drifted in all');
  t.deepEqual(
    (m.new as { host: string }[]).map((i) => i.host),
    ['tor2'],
  );
  t.deepEqual(
    (m.resolved as { host: string }[]).map((i) => i.host),
    ['tor3'],
  );
  t.false(JSON.stringify(m).includes('auth_pass'), 'values are the masked ones of the run');
});

test('posted once when the receiver answers 2xx', async (t) => {
  const s = await server(t, (_n, _req, res) => res.writeHead(204).end());
  t.is(await postNotification(s.url, { hello: 1 }, noWait), null);
  t.deepEqual(s.bodies, [{ hello: 1 }]);
});

test('5xx: retried with backoff until it goes through', async (t) => {
  const waits: number[] = [];
  const s = await server(t, (n, _req, res) => res.writeHead(n < 3 ? 503 : 200).end());
  const r = await postNotification(s.url, { x: 1 }, { backoffMs: 100, sleep: async (ms) => void waits.push(ms) });
  t.is(r, null);
  t.is(s.attempts(), 3);
  t.deepEqual(waits, [100, 200]);
});

test('a receiver that never answers: each attempt times out, the failure is returned, not thrown', async (t) => {
  const s = await server(t, () => {});
  const r = await postNotification(s.url, {}, { ...noWait, attempts: 2, timeoutMs: 150 });
  t.is(r, `--notify ${s.url}: no answer within 150 ms (after 2 attempts)`);
  t.is(s.attempts(), 2);
});

test('a 4xx other than 408/429 is not retried; a refused connection is said plainly', async (t) => {
  const s = await server(t, (_n, _req, res) => res.writeHead(404, 'Not Found').end());
  t.is(await postNotification(s.url, {}, noWait), `--notify ${s.url}: HTTP 404 Not Found (after 1 attempt)`);
  t.is(s.attempts(), 1);
  t.regex(
    (await postNotification(await closedPort(), {}, { ...noWait, attempts: 1 }))!,
    /ECONNREFUSED \(after 1 attempt\)$/,
  );
});
