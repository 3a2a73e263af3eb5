// Notifications (runner/drift/notify.ts): a message only when a run has new or resolved items, posted
// to a local HTTP server; retries with backoff on failure, a timeout per attempt, the failure returned
// (never thrown); the message carries masked values only, and the URL only as scheme, host and port.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { countItems, type DriftItem, type DriftRun, driftExit } from '../../runner/drift/model.js';
import { notificationOf, notifyTarget, postNotification } from '../../runner/drift/notify.js';

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
  const port = (s.address() as AddressInfo).port;
  // A webhook's token sits in its path or query: never shown.
  return {
    url: `http://127.0.0.1:${port}/hook/T0K3N?sig=S1G`,
    target: `http://127.0.0.1:${port}/…`,
    bodies,
    attempts: () => n,
  };
}

const noWait = { sleep: async () => {}, timeoutMs: 500 };

/** A URL on a port nothing listens on (taken, then let go). */
async function closedPort(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `http://127.0.0.1:${port}/hook/T0K3N`;
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
  t.is(r, `--notify ${s.target}: no answer within 150 ms (after 2 attempts)`);
  t.is(s.attempts(), 2);
});

test('a 4xx other than 408/429 is not retried; a refused connection is said plainly', async (t) => {
  const s = await server(t, (_n, _req, res) => res.writeHead(404, 'Not Found').end());
  t.is(await postNotification(s.url, {}, noWait), `--notify ${s.target}: HTTP 404 Not Found (after 1 attempt)`);
  t.is(s.attempts(), 1);
  t.regex(
    (await postNotification(await closedPort(), {}, { ...noWait, attempts: 1 }))!,
    /^--notify http:\/\/127\.0\.0\.1:\d+\/…: ECONNREFUSED \(after 1 attempt\)$/,
  );
});

test('notifyTarget: scheme, host and port only, never userinfo, path or query', (t) => {
  const urls = [
    'https://hooks.example.com/services/T000/B000/XXXXSECRET',
    'https://hooks.example.com:8443/hook?token=abc#frag',
    'https://bot:s3cret@chat.example.com/',
    'http://[::1]:9000/hook',
    'https://hooks.example.com/',
    'https://hooks.example.com',
    'mailto:ops@example.com',
    'not a url with a t0ken',
  ];
  t.deepEqual(Object.fromEntries(urls.map((u) => [u, notifyTarget(u)])), {
    'https://hooks.example.com/services/T000/B000/XXXXSECRET': 'https://hooks.example.com/…',
    'https://hooks.example.com:8443/hook?token=abc#frag': 'https://hooks.example.com:8443/…',
    'https://bot:s3cret@chat.example.com/': 'https://chat.example.com/…',
    'http://[::1]:9000/hook': 'http://[::1]:9000/…',
    'https://hooks.example.com/': 'https://hooks.example.com/',
    'https://hooks.example.com': 'https://hooks.example.com/',
    'mailto:ops@example.com': 'mailto:…',
    'not a url with a t0ken': 'an invalid URL (not shown)',
  });
});

test('a failed notification never shows the token: not in the message, whatever the failure', async (t) => {
  const s = await server(t, (_n, _req, res) => res.writeHead(500).end());
  const failures = [
    await postNotification(s.url, {}, { ...noWait, attempts: 1 }),
    await postNotification(await closedPort(), {}, { ...noWait, attempts: 1 }),
    // fetch refuses credentials in a URL with an error that quotes the URL.
    await postNotification('http://bot:pa55@127.0.0.1:9/hook/T0K3N', {}, { ...noWait, attempts: 1 }),
    await postNotification('https://hooks.example.com:notaport/T0K3N', {}, noWait),
    await postNotification('ftp://hooks.example.com/T0K3N', {}, noWait),
  ];
  t.deepEqual(failures.slice(2), [
    '--notify http://127.0.0.1:9/…: Request cannot be constructed from a URL that includes credentials: http://127.0.0.1:9/… (after 1 attempt)',
    '--notify an invalid URL (not shown): expected an http:// or https:// URL',
    '--notify ftp://hooks.example.com/…: expected an http:// or https:// URL',
  ]);
  t.is(failures[0], `--notify ${s.target}: HTTP 500 Internal Server Error (after 1 attempt)`);
  for (const f of failures) t.false(/T0K3N|S1G|pa55/.test(f!), f!);
});
