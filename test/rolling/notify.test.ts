// A rolling run's notices (runner/rolling/notify-message.ts, notify-queue.ts): which journal events and
// ends make a message, and what it says, as a table; then the queue against a local receiver: in order,
// a failed post a warning line (never thrown), secrets masked.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { Secret } from '../../runner/core/secret.js';
import { endNotice, eventNotice, startNotice } from '../../runner/rolling/notify-message.js';
import { RollingNotices } from '../../runner/rolling/notify-queue.js';
import type { JournalEvent } from '../../runner/state/store.js';

const RUN = { run: 7, playbook: 'gated', inventory: '/srv/inv.yaml' };
const AT = '2026-11-23T12:00:00.000Z';
const ev = (host: string, phase: string, state: JournalEvent['state'], detail: string | null, data?: object) =>
  ({ runId: 7, host, phase, state, at: AT, detail, data: data ?? null }) as JournalEvent;

test('which events make a message, and what it says', (t) => {
  const events = [
    ev('', 'batch', 'begin', 'batch 1 of 3: a', { batch: 1 }),
    ev('', 'batch', 'end', '1 done (1 node)', { batch: 1 }),
    ev('', 'alerts', 'fail', 'alert NodeDown firing', { batch: 2 }),
    ev('', 'gate', 'fail', 'node3 NotReady during the soak', { batch: 2 }),
    ev('b', 'apply', 'begin', null),
    ev('b', 'apply', 'fail', 'task d failed: exit 5'),
    ev('c', 'check', 'fail', null),
    ev('a', 'done', 'end', null),
  ];
  const base = { run: 7, playbook: 'gated', inventory: '/srv/inv.yaml', at: AT };
  t.deepEqual(
    events.map((e) => eventNotice(RUN, e)),
    [
      null,
      {
        ...base,
        text: 'play rolling run 7 of gated: batch 1 done: 1 done (1 node)',
        event: 'batch-done',
        batch: 1,
        result: '1 done (1 node)',
      },
      null,
      null,
      null,
      {
        ...base,
        text: 'play rolling run 7 of gated: b failed in apply: task d failed: exit 5',
        event: 'node-failed',
        host: 'b',
        phase: 'apply',
        reason: 'task d failed: exit 5',
      },
      {
        ...base,
        text: 'play rolling run 7 of gated: c failed in check',
        event: 'node-failed',
        host: 'c',
        phase: 'check',
        reason: null,
      },
      null,
    ],
  );
});

test('the start and every end, with why and how to go on', (t) => {
  const resume = 'play gated --resume';
  const ends = [
    ['paused', 'alert gate before batch 2 of 3: alert NodeDown firing {instance="a"}'],
    ['paused', 'outside the maintenance window * 01:00-05:00 UTC; it opens next at 2026-11-24T01:00:00.000Z'],
    ['stopped', 'failure budget spent: 1 failed, 0 allowed'],
    ['done', null],
    ['done', '1 node failed'],
    ['interrupted', 'stopped by a signal (Ctrl-C or SIGTERM)'],
    ['running', 'the lease was taken over by another controller'],
  ] as const;
  t.deepEqual(
    [
      startNotice(RUN, false, AT).text,
      startNotice(RUN, true, AT).text,
      ...ends.map(([status, reason]) => {
        const n = endNotice(RUN, status, reason, AT, resume);
        return [n.event, n.text, n.status, n.reason];
      }),
    ],
    [
      'play rolling run 7 of gated started',
      'play rolling run 7 of gated resumed',
      [
        'paused',
        'play rolling run 7 of gated paused: alert gate before batch 2 of 3: alert NodeDown firing {instance="a"}; resume with: play gated --resume',
        'paused',
        'alert gate before batch 2 of 3: alert NodeDown firing {instance="a"}',
      ],
      [
        'paused',
        'play rolling run 7 of gated paused: outside the maintenance window * 01:00-05:00 UTC; it opens next at 2026-11-24T01:00:00.000Z; resume with: play gated --resume',
        'paused',
        'outside the maintenance window * 01:00-05:00 UTC; it opens next at 2026-11-24T01:00:00.000Z',
      ],
      [
        'stopped',
        'play rolling run 7 of gated stopped: failure budget spent: 1 failed, 0 allowed',
        'stopped',
        'failure budget spent: 1 failed, 0 allowed',
      ],
      ['done', 'play rolling run 7 of gated done', 'done', null],
      ['done', 'play rolling run 7 of gated done: 1 node failed', 'done', '1 node failed'],
      [
        'interrupted',
        'play rolling run 7 of gated interrupted: stopped by a signal (Ctrl-C or SIGTERM); resume with: play gated --resume',
        'interrupted',
        'stopped by a signal (Ctrl-C or SIGTERM)',
      ],
      [
        'interrupted',
        'play rolling run 7 of gated interrupted: the lease was taken over by another controller; resume with: play gated --resume',
        'running',
        'the lease was taken over by another controller',
      ],
    ],
  );
});

test('a revealed secret in a reason is masked in the message', (t) => {
  const s = new Secret('hunter2-Secret', 'env:T');
  s.reveal();
  const n = eventNotice(RUN, ev('b', 'apply', 'fail', 'login failed for hunter2-Secret'))!;
  t.is(n.text, 'play rolling run 7 of gated: b failed in apply: login failed for ********');
  t.is(n.reason, 'login failed for ********');
});

async function receiver(t: ExecutionContext, status: (n: number) => number) {
  const bodies: { event: string }[] = [];
  let n = 0;
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(status(++n)).end();
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => s.close(() => r())));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook/T0K3N`, bodies };
}

const fast = { sleep: async () => {}, timeoutMs: 2000 };

test('the queue posts in order, off the run path, and the end waits for the last post', async (t) => {
  const r = await receiver(t, () => 204);
  const warnings: string[] = [];
  const q = new RollingNotices(r.url, RUN, (l) => warnings.push(l), fast);
  q.started(false);
  q.event(ev('', 'batch', 'end', '1 done (1 node)', { batch: 1 }));
  q.event(ev('b', 'apply', 'fail', 'task d failed'));
  q.event(ev('', 'batch', 'end', '1 failed (1 node)', { batch: 2 }));
  await q.ended('stopped', 'failure budget spent: 1 failed, 0 allowed', 'play gated --resume');
  t.deepEqual(
    r.bodies.map((b) => b.event),
    ['started', 'batch-done', 'node-failed', 'batch-done', 'stopped'],
  );
  t.deepEqual(warnings, []);
});

test('a notice that cannot be delivered is a warning line, never a failure, and never shows the token', async (t) => {
  const r = await receiver(t, (n) => (n === 1 ? 500 : 204));
  const warnings: string[] = [];
  const q = new RollingNotices(r.url, RUN, (l) => warnings.push(l), { ...fast, attempts: 1 });
  q.started(false);
  await q.ended('done', null, 'play gated --resume');
  const target = r.url.replace(/\/hook\/T0K3N$/, '/…');
  t.deepEqual(warnings, [
    `warning: the started notice was not delivered: --notify ${target}: HTTP 500 Internal Server Error (after 1 attempt)\n`,
  ]);
  t.deepEqual(q.failures, [`--notify ${target}: HTTP 500 Internal Server Error (after 1 attempt)`]);
  t.deepEqual(
    r.bodies.map((b) => b.event),
    ['started', 'done'],
    'the next notice still goes',
  );
});

test('without --notify nothing is posted and the end does not wait', async (t) => {
  const warnings: string[] = [];
  const q = new RollingNotices(undefined, RUN, (l) => warnings.push(l));
  q.started(false);
  await q.ended('done', null, 'play gated --resume');
  t.deepEqual([warnings, q.failures], [[], []]);
});
