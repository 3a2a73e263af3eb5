// The run's event stream and what reads it, pure: events built from the runner's transitions (each one
// valid against the zod schema docs/schema/events.schema.json is written from), output tails (bounds,
// masking), the verbose lines, the heartbeat's line on a fake clock, and the line stamper.
import test from 'ava';
import { Writable } from 'node:stream';
import { Secret } from '../../runner/core/secret.js';
import type { Host } from '../../runner/inventory/model.js';
import type { TaskNode } from '../../runner/playbook/compile.js';
import { eventLine, toPlayEvent } from '../../runner/report/events.js';
import { HeartbeatState, heartbeatSeconds, waited } from '../../runner/report/heartbeat.js';
import type { HostReport, RunReport, StepReport } from '../../runner/report/model.js';
import { playEventSchema } from '../../runner/report/schema/event-schema.js';
import { failedOutputLines } from '../../runner/report/text.js';
import { stampedStream, stampLines } from '../../runner/report/timestamps.js';
import { verboseLines } from '../../runner/report/verbose.js';
import type { RunEvent } from '../../runner/run/run-graph.js';
import { OutputTail, secretsIn, tailOf } from '../../runner/run/output-tail.js';

const host = (name: string) => ({ name }) as Host;
const [node009, tor1] = [host('node009'), host('tor1')];
const node = (task: string, target: Host, runsOn = target) => ({ task, target, runsOn }) as TaskNode;
const step = (extra: Partial<StepReport> = {}): StepReport => ({
  task: 'vip',
  target: 'node009',
  kind: 'linux.keepalived',
  title: 'VIP 198.18.10.1',
  action: 'update',
  fields: ['vips'],
  before: { vips: [] },
  after: { vips: ['198.18.10.1'] },
  status: 'changed',
  durationMs: 1234,
  error: null,
  ...extra,
});
const hostReport: HostReport = {
  status: 'failed',
  steps: [step(), step({ task: 'x', status: 'failed', error: 'boom' })],
};
const runReport = {
  playbook: 'onboard-windows',
  mode: 'apply',
  startedAt: '2026-05-01T10:00:00.000Z',
  durationMs: 65_000,
  interrupted: false,
  hosts: { tor1: hostReport },
  summary: { ok: 0, changed: 0, failed: 1, skipped: 0, unreachable: 0, interrupted: 0 },
} as unknown as RunReport;
const NOW = new Date('2026-05-01T10:00:05.250Z');
const ts = NOW.toISOString();

test('each transition of the runner becomes one stamped event of the schema', (t) => {
  const output = { stdout: 'ok\n', stderr: '', truncated: false };
  const rows: [RunEvent, unknown][] = [
    [
      {
        type: 'run-start',
        playbook: 'onboard-windows',
        mode: 'apply',
        hosts: ['node009', 'tor1'],
        inventory: '/i.yaml',
      },
      {
        ts,
        type: 'run-start',
        playbook: 'onboard-windows',
        mode: 'apply',
        hosts: ['node009', 'tor1'],
        inventory: '/i.yaml',
      },
    ],
    [
      { type: 'host-start', host: 'tor1' },
      { ts, type: 'host-start', host: 'tor1' },
    ],
    [
      { type: 'step-start', node: node('reboot', node009) },
      { ts, type: 'step-start', host: 'node009', task: 'reboot' },
    ],
    [
      { type: 'step-start', node: node('vip', node009, tor1) },
      { ts, type: 'step-start', host: 'tor1', task: 'vip', target: 'node009' },
    ],
    [
      { type: 'step-done', node: node('vip', node009, tor1), report: step({ output }) },
      {
        ts,
        type: 'step-done',
        host: 'tor1',
        task: 'vip',
        target: 'node009',
        kind: 'linux.keepalived',
        title: 'VIP 198.18.10.1',
        status: 'changed',
        action: 'update',
        fields: ['vips'],
        durationMs: 1234,
        error: null,
        output,
      },
    ],
    [
      {
        type: 'step-done',
        node: node('hns', node009),
        report: step({
          task: 'hns',
          target: undefined,
          status: 'skipped',
          skip: 'dependency',
          action: null,
          fields: [],
          error: 'needs x',
        }),
      },
      {
        ts,
        type: 'step-done',
        host: 'node009',
        task: 'hns',
        kind: 'linux.keepalived',
        title: 'VIP 198.18.10.1',
        status: 'skipped',
        skip: 'dependency',
        action: null,
        fields: [],
        durationMs: 1234,
        error: 'needs x',
      },
    ],
    [
      { type: 'host-done', host: 'tor1', report: hostReport },
      {
        ts,
        type: 'host-done',
        host: 'tor1',
        status: 'failed',
        counts: { ok: 0, changed: 1, failed: 1, skipped: 0, unreachable: 0, unknown: 0 },
      },
    ],
    [
      { type: 'run-done', report: runReport },
      {
        ts,
        type: 'run-done',
        playbook: 'onboard-windows',
        summary: { ok: 0, changed: 0, failed: 1, skipped: 0, unreachable: 0, interrupted: 0 },
        durationMs: 65_000,
        interrupted: false,
      },
    ],
    [
      { type: 'trace', level: 3, host: 'tor1', text: 'authenticated as root in 40 ms' },
      { ts, type: 'trace', level: 3, host: 'tor1', text: 'authenticated as root in 40 ms' },
    ],
  ];
  for (const [input, expected] of rows) {
    const event = toPlayEvent(input, NOW);
    t.deepEqual(event, expected as never, input.type);
    t.deepEqual(playEventSchema.parse(JSON.parse(eventLine(event))), event, `${input.type} fits the schema`);
  }
  t.false(playEventSchema.safeParse({ ts, type: 'host-start', host: 'tor1', extra: 1 }).success, 'strict shapes');
});

test('an output tail keeps the last 20 lines and 4 KiB of each stream, cut on a character boundary', (t) => {
  const numbered = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}\n`).join('');
  const rows: [string, { text: string; truncated: boolean }][] = [
    ['', { text: '', truncated: false }],
    ['one\n', { text: 'one\n', truncated: false }],
    [numbered(20), { text: numbered(20), truncated: false }],
    [numbered(21), { text: numbered(21).slice(3), truncated: true }],
    ['no newline at the end', { text: 'no newline at the end', truncated: false }],
    ['x'.repeat(5000), { text: 'x'.repeat(4096), truncated: true }],
    // é is 2 bytes: 4097 bytes of é cut at 4096 would split one; the partial one is dropped.
    ['a' + 'é'.repeat(2048), { text: 'é'.repeat(2048), truncated: true }],
    ['b' + 'é'.repeat(2048) + 'c', { text: 'é'.repeat(2047) + 'c', truncated: true }],
  ];
  for (const [input, expected] of rows) t.deepEqual(tailOf(input), expected, JSON.stringify(input.slice(0, 30)));
});

test("a step's tail gathers its commands' output, bounded as it goes and masked with the host's secrets", (t) => {
  const vault = new Secret('vault-Value-91', 'vault:group_vars/all.yml');
  t.deepEqual(secretsIn({ a: 1, b: [vault, { c: vault }], d: 'x' }), [vault, vault]);
  const tail = new OutputTail(secretsIn({ token: vault }));
  t.is(tail.snapshot(), undefined, 'no command: no output');
  tail.add({ stdout: 'token is vault-Value-91\n', stderr: '' });
  for (let i = 1; i <= 25; i++) tail.add({ stdout: `n${i}\n`, stderr: i === 25 ? 'err "vault-Value-91"\n' : '' });
  const out = tail.snapshot()!;
  t.deepEqual(out, {
    stdout: Array.from({ length: 20 }, (_, i) => `n${i + 6}\n`).join(''),
    stderr: 'err "********"\n',
    truncated: true,
  });
  const short = new OutputTail();
  short.add({ stdout: 'token is vault-Value-91', stderr: '' });
  t.deepEqual(short.snapshot(), { stdout: 'token is ********', stderr: '', truncated: false });
});

test('verbose lines per level: -v steps and output, -vv what is sent, -vvv the connection; a failed step always shows its output', (t) => {
  const output = { stdout: 'a\nb\n', stderr: 'c\n', truncated: true };
  const done = toPlayEvent({ type: 'step-done', node: node('vip', node009, tor1), report: step({ output }) }, NOW);
  const failed = toPlayEvent(
    {
      type: 'step-done',
      node: node('x', tor1),
      report: step({
        task: 'x',
        target: undefined,
        status: 'failed',
        error: 'boom',
        output: { ...output, truncated: false },
      }),
    },
    NOW,
  );
  const start = toPlayEvent({ type: 'step-start', node: node('reboot', node009) }, NOW);
  const send = toPlayEvent({ type: 'trace', level: 2, host: 'tor1', text: 'sh: set -e\necho hi\n' }, NOW);
  const ssh = toPlayEvent(
    { type: 'trace', level: 3, host: 'tor1', text: 'channel for a command (1 of 8 in use)' },
    NOW,
  );
  const at = (level: number) =>
    [start, done, failed, send, ssh].map((e) => verboseLines(e, { level, runLines: false }));
  const failedLines = ['tor1 › x: stdout| a', 'tor1 › x: stdout| b', 'tor1 › x: stderr| c'];
  t.deepEqual(at(0), [[], [], failedLines, [], []]);
  const v = [
    ['node009 › reboot: start'],
    [
      'tor1 › vip (for node009): changed (update vips) in 1.23 s',
      'tor1 › vip (for node009): (earlier output cut: the last 20 lines, 4 KiB, of each stream)',
      'tor1 › vip (for node009): stdout| a',
      'tor1 › vip (for node009): stdout| b',
      'tor1 › vip (for node009): stderr| c',
    ],
    ['tor1 › x: failed (update vips) in 1.23 s: boom', ...failedLines],
  ];
  t.deepEqual(at(1), [...v, [], []]);
  t.deepEqual(at(2), [...v, ['tor1 [send] sh: set -e', 'tor1 [send]   echo hi'], []]);
  t.deepEqual(at(3), [
    ...v,
    ['tor1 [send] sh: set -e', 'tor1 [send]   echo hi'],
    ['tor1 [ssh] channel for a command (1 of 8 in use)'],
  ]);
  const run = toPlayEvent({ type: 'run-done', report: runReport }, NOW);
  t.deepEqual(verboseLines(run, { level: 0, runLines: false }), []);
  t.deepEqual(verboseLines(run, { level: 2, runLines: true }), [
    'run onboard-windows done in 65.00 s: 0 ok, 0 changed, 1 failed, 0 skipped, 0 unreachable, 0 interrupted',
  ]);
});

test('the closing lines show the output of failed steps, at most five', (t) => {
  const output = { stdout: '', stderr: 'no space left on device\n', truncated: false };
  const hosts: Record<string, HostReport> = {};
  for (let i = 1; i <= 7; i++)
    hosts[`linux${i}`] = { status: 'failed', steps: [step(), step({ task: 'b', status: 'failed', output })] };
  hosts.linux8 = { status: 'failed', steps: [step({ task: 'b', status: 'failed' })] };
  t.deepEqual(failedOutputLines({ ...runReport, hosts }), [
    ...[1, 2, 3, 4, 5].map((i) => `  [linux${i}] b: stderr| no space left on device`),
    '  and 2 more failed steps with output (--json has each)',
  ]);
});

test("the heartbeat: hosts done and running, each running host's step and how long it has waited, at most ten named", (t) => {
  const at = (s: number) => new Date(Date.parse('2026-05-01T10:00:00Z') + s * 1000);
  const state = new HeartbeatState();
  const feed = (e: RunEvent, s: number) => state.onEvent(e, at(s).getTime());
  const nodes = Array.from({ length: 13 }, (_, i) => host(`node${String(i + 10).padStart(3, '0')}`));
  feed({ type: 'run-start', playbook: 'p', mode: 'apply', hosts: ['node009', ...nodes.map((n) => n.name)] }, 0);
  t.is(state.line(at(1).getTime()), null, 'nothing runs yet: no line');
  feed({ type: 'host-start', host: 'node009' }, 0);
  feed({ type: 'step-start', node: node('reboot', node009) }, 2);
  t.is(state.line(at(132).getTime()), 'still running: 0 of 14 hosts done, 1 running: node009: reboot (waiting 2m10s)');
  nodes.forEach((n, i) => {
    feed({ type: 'host-start', host: n.name }, 10 + i);
    feed({ type: 'step-start', node: node('hotfix', n) }, 10 + i);
  });
  feed({ type: 'step-done', node: node('hotfix', nodes[0]!), report: step() }, 40);
  feed({ type: 'host-done', host: nodes[12]!.name, report: hostReport }, 40);
  t.is(
    state.line(at(3662).getTime()),
    'still running: 1 of 14 hosts done, 13 running: node009: reboot (waiting 1h01m), ' +
      'node011: hotfix (waiting 1h00m), node012: hotfix (waiting 1h00m), node013: hotfix (waiting 1h00m), ' +
      'node014: hotfix (waiting 1h00m), node015: hotfix (waiting 1h00m), node016: hotfix (waiting 1h00m), ' +
      'node017: hotfix (waiting 1h00m), node018: hotfix (waiting 1h00m), node019: hotfix (waiting 1h00m), ' +
      'and 3 more',
  );
  t.deepEqual([0, 59_999, 60_000, 130_000, 3_599_000, 3_600_000].map(waited), [
    '0s',
    '59s',
    '1m00s',
    '2m10s',
    '59m59s',
    '1h00m',
  ]);
  t.deepEqual(
    ['', '30', '0.5', '0', 'x'].map((v) => heartbeatSeconds({ PLAY_HEARTBEAT_SEC: v })),
    [
      30,
      30,
      0.5,
      'PLAY_HEARTBEAT_SEC=0: expected a number of seconds above 0, e.g. 30',
      'PLAY_HEARTBEAT_SEC=x: expected a number of seconds above 0, e.g. 30',
    ],
  );
});

test('the line stamper puts the time before each complete line; a partial line waits for its end', (t) => {
  t.deepEqual(stampLines('', 'a\nb\n', '10:00:00'), { stamped: '10:00:00 a\n10:00:00 b\n', rest: '' });
  t.deepEqual(stampLines('', 'par', 'T'), { stamped: '', rest: 'par' });
  t.deepEqual(stampLines('par', 'tial\nnext', 'T'), { stamped: 'T partial\n', rest: 'next' });
  let text = '';
  const target = new Writable({
    write(chunk, _e, done) {
      text += chunk;
      done();
    },
  });
  const clock = [NOW, new Date(NOW.getTime() + 1000)];
  const s = stampedStream(
    target,
    (d) => d.toISOString(),
    () => clock.shift()!,
  );
  s.write('one\ntw');
  s.write('o\n');
  t.is(text, '2026-05-01T10:00:05.250Z one\n2026-05-01T10:00:06.250Z two\n');
});
