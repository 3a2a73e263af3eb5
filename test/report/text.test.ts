// The compact report (runner/report/text.ts, renderer.ts), also at lab scale (a thousand hosts): identical outcomes and changes are one line each.
import test from 'ava';
import { Writable } from 'node:stream';
import { summarize, type HostReport, type RunReport, type StepReport } from '../../runner/report/model.js';
import { CompactRenderer } from '../../runner/report/renderer.js';
import { groupedChanges, hostList, hostRanges, outcomeLines, summaryLine } from '../../runner/report/text.js';

const step = (task: string, status: StepReport['status'], extra: Partial<StepReport> = {}): StepReport => ({
  task,
  kind: 'file',
  title: '/srv/app.conf',
  action: status === 'changed' ? 'update' : null,
  fields: status === 'changed' ? ['content'] : [],
  before: null,
  after: null,
  status,
  durationMs: 1,
  error: null,
  ...extra,
});

function report(hosts: Record<string, HostReport>): RunReport {
  return {
    schemaVersion: 1,
    kind: 'run',
    playbook: 'bench',
    mode: 'check',
    startedAt: '',
    durationMs: 1000,
    interrupted: false,
    hosts,
    summary: { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 },
  };
}

test('host names are shown as ranges, the first few and a count beyond', (t) => {
  t.deepEqual(
    hostRanges(['linux1', 'linux2', 'linux3', 'linux7', 'tor1', 'tor2', 'node009', 'node010', 'control1', 'gw']),
    ['linux1..linux3', 'linux7', 'tor1..tor2', 'node009..node010', 'control1', 'gw'],
  );
  t.deepEqual(hostRanges(['node099', 'node100']), ['node099..node100']);
  t.deepEqual(
    [
      hostList(Array.from({ length: 1000 }, (_, i) => `linux${i + 1}`)),
      hostList(['a1', 'a3', 'a5', 'a7', 'a9', 'a11']),
      hostList(['linux1', 'linux2']),
    ],
    ['linux1..linux1000', 'a1, a3, a5 and 3 more', 'linux1..linux2'],
  );
});

test('a thousand hosts with the same outcome are one line; a failed one has its own', (t) => {
  const hosts: Record<string, HostReport> = {};
  for (let i = 1; i <= 1000; i++) hosts[`linux${i}`] = { status: 'ok', steps: [step('dir', 'ok'), step('copy', 'ok')] };
  hosts.linux500 = { status: 'failed', steps: [step('dir', 'ok'), step('copy', 'failed', { error: 'disk full' })] };
  t.deepEqual(outcomeLines(report(hosts)), [
    '999 hosts ok (2 ok): linux1..linux499, linux501..linux1000',
    '1 host failed (1 ok, 1 failed): linux500',
  ]);
});

test('changes that differ only in detail are one group, with at most three of the variants shown', (t) => {
  const hosts: Record<string, HostReport> = {};
  for (let i = 1; i <= 1000; i++) {
    hosts[`linux${i}`] = {
      status: 'changed',
      steps: [step('copy', 'changed', { before: { content: null }, after: { content: `host=linux${i}` } })],
    };
  }
  const lines = groupedChanges(report(hosts), true);
  t.deepEqual(lines, [
    '  [linux1..linux1000] copy: /srv/app.conf update content',
    '    on [linux1]:',
    '      content: (absent) -> "host=linux1"',
    '    on [linux2]:',
    '      content: (absent) -> "host=linux2"',
    '    on [linux3]:',
    '      content: (absent) -> "host=linux3"',
    '    and 997 more different changes on 997 hosts (--json has each)',
  ]);
  t.deepEqual(groupedChanges(report(hosts), false), ['  [linux1..linux1000] copy: /srv/app.conf update content']);
});

/** What the compact renderer prints for a run of `hosts`, events first, then the closing lines. */
function rendered(hosts: Record<string, HostReport>, mode: 'apply' | 'check' = 'apply'): string[] {
  let text = '';
  const out = new Writable({
    write(chunk, _enc, done) {
      text += chunk;
      done();
    },
  });
  const r = new CompactRenderer({ out, diff: false, title: 'bench' });
  r.start(Object.keys(hosts));
  for (const [host, h] of Object.entries(hosts)) r.onEvent({ type: 'host-done', host, report: h });
  const full = report(hosts);
  full.mode = mode;
  full.summary = summarize(hosts);
  r.finish(full);
  return text.trimEnd().split('\n');
}

test('the compact renderer: a line per host up to 20 hosts; above, only hosts with a problem live, then outcomes grouped', (t) => {
  const ok = (): HostReport => ({ status: 'ok', steps: [step('dir', 'ok')] });
  const few: Record<string, HostReport> = { linux1: ok(), linux2: ok() };
  t.deepEqual(rendered(few), [
    'bench on 2 hosts',
    'linux1    ok          1 ok',
    'linux2    ok          1 ok',
    'bench: 2 hosts: 2 ok, 0 changed, 0 failed, 0 skipped, 0 unreachable in 1.00 s',
  ]);
  const many: Record<string, HostReport> = {};
  for (let i = 1; i <= 25; i++) many[`linux${i}`] = ok();
  many.linux7 = { status: 'unreachable', steps: [step('dir', 'unreachable', { error: 'connection refused' })] };
  t.deepEqual(rendered(many), [
    'bench on 25 hosts',
    'linux7    unreachable 1 unreachable dir: connection refused',
    '24 hosts ok (1 ok): linux1..linux6, linux8..linux25',
    '1 host unreachable (1 unreachable): linux7',
    'changes and failures:',
    '  [linux7] dir: unreachable: connection refused',
    'bench: 25 hosts: 24 ok, 0 changed, 0 failed, 0 skipped, 1 unreachable in 1.00 s',
  ]);
});

test('the summary line counts interrupted hosts apart from ok ones', (t) => {
  const hosts: Record<string, HostReport> = {
    linux1: { status: 'changed', steps: [step('dir', 'changed')] },
    linux2: {
      status: 'interrupted',
      steps: [step('dir', 'changed'), step('copy', 'skipped', { skip: 'interrupted', error: 'interrupted' })],
    },
  };
  const r = { ...report(hosts), mode: 'apply' as const, interrupted: true, summary: summarize(hosts) };
  t.is(
    summaryLine(r),
    'bench: 2 hosts: 0 ok, 1 changed, 0 failed, 0 skipped, 0 unreachable, 1 interrupted in 1.00 s (interrupted)',
  );
});
