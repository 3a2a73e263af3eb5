// Waivers: which drift items a waiver covers, expiry in UTC, first-wins and the warnings (the
// loader's messages: waivers-load.test.ts). Tables compared whole.
import test from 'ava';
import { UsageError } from '../../runner/core/errors.js';
import type { DriftItem } from '../../runner/drift/model.js';
import { applyWaivers, isExpired, nameMatcher, type Waiver } from '../../runner/drift/waivers.js';

function item(host: string, task: string, fields: string[] = ['binPath'], over: Partial<DriftItem> = {}): DriftItem {
  return {
    host,
    playbook: 'onboard-windows',
    task,
    kind: 'windows.service',
    title: `service ${task}`,
    action: 'update',
    fields,
    before: null,
    after: null,
    status: 'new',
    firstSeen: '2026-05-01T10:00:00.000Z',
    ...over,
  };
}

function waiver(line: number, hosts: string, task: string, over: Partial<Waiver> = {}): Waiver {
  return {
    hosts,
    playbook: 'onboard-windows',
    task,
    reason: `reason ${line}`,
    expires: '2026-12-31',
    source: `waivers.yml:${line}`,
    ...over,
  };
}

const NOW = new Date('2026-06-01T12:00:00Z');

/** Each item as `host/task: SOURCE` (or `expired SOURCE`, or `-` when not waived). */
function summary(items: DriftItem[]): string[] {
  return items.map(
    (i) => `${i.host}/${i.task}: ${i.waiver ? `${i.waiver.expired ? 'expired ' : ''}${i.waiver.source}` : '-'}`,
  );
}

test('host patterns read against names alone', (t) => {
  const hosts = ['node009', 'node010', 'node011', 'node0100', 'tor1', 'tor2'];
  const table: [string, string[]][] = [
    ['node010', ['node010']],
    ['node01*', ['node010', 'node011', 'node0100']],
    ['node01?', ['node010', 'node011']],
    ['node0[01][09]', ['node009', 'node010']],
    ['~node01[01]$', ['node010', 'node011']],
    ['~node01', ['node010', 'node011', 'node0100']],
    ['node009,tor2', ['node009', 'tor2']],
    ['node0*:!node009', ['node010', 'node011', 'node0100']],
    ['node0*:&*1', ['node011']],
    ['!tor*', ['node009', 'node010', 'node011', 'node0100']],
    ['all', hosts],
    ['*', hosts],
    ['windows', []],
  ];
  t.deepEqual(
    table.map(([p]) => [p, hosts.filter(nameMatcher(p))]),
    table,
  );
});

test('which items a waiver covers: hosts, playbook, task, fields', (t) => {
  const items = [
    item('node010', 'kubelet'),
    item('node011', 'kubelet', ['binPath', 'args']),
    item('node009', 'kubelet'),
    item('node010', 'w32time', ['startMode']),
    item('node010', 'kubelet-config', []),
    item('node011', 'kubelet', ['args'], { playbook: 'tor-gateway' }),
    item('node012', 'kubelet', [], { action: 'create' }),
    item('node013', 'kubelet', [], { action: 'unknown', unknownReason: 'needs join' }),
  ];
  const waivers = [
    waiver(1, 'node01*', 'kubelet', { fields: ['binPath'] }),
    waiver(7, 'node009', 'kubelet'),
    waiver(13, 'node013', 'kubelet'),
    waiver(19, 'node012', 'kubelet', { fields: ['binPath'] }),
  ];
  const { items: out, warnings } = applyWaivers(items, waivers, NOW);
  t.deepEqual(summary(out), [
    'node010/kubelet: waivers.yml:1',
    // args is not within [binPath]
    'node011/kubelet: -',
    'node009/kubelet: waivers.yml:7',
    'node010/w32time: -',
    'node010/kubelet-config: -',
    // another playbook
    'node011/kubelet: -',
    // a fields list never waives a whole thing created (no fields)
    'node012/kubelet: -',
    // without fields, an unknown item is covered too
    'node013/kubelet: waivers.yml:13',
  ]);
  t.deepEqual(out[0]!.waiver, { reason: 'reason 1', expires: '2026-12-31', expired: false, source: 'waivers.yml:1' });
  t.deepEqual(warnings, ['waivers.yml:19: waiver for node012 onboard-windows/kubelet [binPath] matched nothing']);
  // Items are copied, not changed.
  t.is(items[0]!.waiver, undefined);
});

test('expiry: the last day holds through 23:59:59.999 UTC; the day after is expired', (t) => {
  const table: [now: string, expired: boolean][] = [
    ['2026-12-30T23:59:59.999Z', false],
    ['2026-12-31T00:00:00.000Z', false],
    ['2026-12-31T23:59:59.999Z', false],
    ['2027-01-01T00:00:00.000Z', true],
    // Local time is not used: 2026-12-31T20:00-05:00 is already 2027-01-01 in UTC.
    ['2026-12-31T20:00:00-05:00', true],
    ['2028-03-01T00:00:00.000Z', true],
  ];
  t.deepEqual(
    table.map(([now]) => [now, isExpired('2026-12-31', new Date(now))]),
    table,
  );
  t.is(isExpired('2028-02-29', new Date('2028-02-29T23:00:00Z')), false);
  t.is(isExpired('2028-02-29', new Date('2028-03-01T00:00:00Z')), true);
});

test('first matching waiver wins; an unexpired one is preferred over an expired one written before it', (t) => {
  const items = [item('node010', 'kubelet'), item('node011', 'kubelet'), item('node009', 'kubelet')];
  const waivers = [
    waiver(1, 'node010', 'kubelet', { expires: '2026-01-31' }),
    waiver(6, 'node01*', 'kubelet'),
    waiver(11, 'node011', 'kubelet'),
    waiver(16, 'node009', 'kubelet', { expires: '2026-05-31' }),
    waiver(21, 'node00*', 'kubelet', { expires: '2026-04-30' }),
    waiver(26, 'node099', 'kubelet', { expires: '2026-04-30' }),
  ];
  const { items: out, warnings } = applyWaivers(items, waivers, NOW);
  t.deepEqual(summary(out), [
    'node010/kubelet: waivers.yml:6',
    'node011/kubelet: waivers.yml:6',
    'node009/kubelet: expired waivers.yml:16',
  ]);
  t.deepEqual(out[2]!.waiver, { reason: 'reason 16', expires: '2026-05-31', expired: true, source: 'waivers.yml:16' });
  t.deepEqual(warnings, [
    'waivers.yml:1: waiver for node010 onboard-windows/kubelet is never used: its items are covered by waivers.yml:6',
    'waivers.yml:11: waiver for node011 onboard-windows/kubelet is never used: its items are covered by waivers.yml:6',
    'waivers.yml:16: waiver for node009 onboard-windows/kubelet expired on 2026-05-31: 1 item counts as drift again',
    'waivers.yml:21: waiver for node00* onboard-windows/kubelet is never used: its items are covered by waivers.yml:16',
    'waivers.yml:26: waiver for node099 onboard-windows/kubelet matched nothing (it expired on 2026-04-30)',
  ]);
});

test('resolved items are never waived, and a waiver matching only them matched nothing', (t) => {
  const stale = { reason: 'old', expires: '2026-12-31', expired: false, source: 'old.yml:1' };
  const items = [
    item('node010', 'kubelet', ['binPath'], { status: 'resolved', waiver: stale }),
    item('node011', 'kubelet', ['binPath'], { status: 'persisting', waiver: stale }),
  ];
  const { items: out, warnings } = applyWaivers(items, [waiver(1, 'node010', 'kubelet')], NOW);
  t.deepEqual(summary(out), ['node010/kubelet: -', 'node011/kubelet: -']);
  t.false('waiver' in out[0]! || 'waiver' in out[1]!);
  t.deepEqual(warnings, ['waivers.yml:1: waiver for node010 onboard-windows/kubelet matched nothing']);
});

test('an expired waiver counts its items in its warning', (t) => {
  const items = [item('node010', 'kubelet'), item('node011', 'kubelet')];
  const { warnings } = applyWaivers(items, [waiver(3, 'node01*', 'kubelet', { expires: '2026-05-31' })], NOW);
  t.deepEqual(warnings, [
    'waivers.yml:3: waiver for node01* onboard-windows/kubelet expired on 2026-05-31: 2 items count as drift again',
  ]);
});

test('a resolver (the inventory) decides the hosts: groups work, and a pattern it refuses is a warning', (t) => {
  const groups: Record<string, string[]> = { windows: ['node009', 'node010'] };
  const resolve = (pattern: string) => {
    if (!groups[pattern]) throw new UsageError(`host pattern '${pattern}': '${pattern}' matches no host or group`);
    return new Set(groups[pattern]);
  };
  const items = [item('node009', 'kubelet'), item('node011', 'kubelet')];
  const { items: out, warnings } = applyWaivers(
    items,
    [waiver(1, 'windows', 'kubelet'), waiver(6, 'linux', 'kubelet')],
    NOW,
    resolve,
  );
  t.deepEqual(summary(out), ['node009/kubelet: waivers.yml:1', 'node011/kubelet: -']);
  t.deepEqual(warnings, [
    "waivers.yml:6: waiver for linux onboard-windows/kubelet matched nothing (host pattern 'linux': 'linux' matches no host or group)",
  ]);
  // Anything else a resolver throws is a bug, not a warning.
  t.throws(() => applyWaivers(items, [waiver(1, 'x', 'kubelet')], NOW, () => ({}) as never));
});
