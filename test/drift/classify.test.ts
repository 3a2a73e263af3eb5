// Drift items against the previous judgement of their hosts (runner/drift/classify.ts), as tables
// compared whole: new, persisting with its first-seen time, resolved once and only when its resource
// was checked this run, and the inventory's host order.
import test from 'ava';
import { classify } from '../../runner/drift/classify.js';
import { mergeObserved, type Observed } from '../../runner/drift/collect.js';
import { type DriftItem, itemKey } from '../../runner/drift/model.js';

const T0 = '2026-11-23T10:00:00.000Z';
const T1 = '2026-11-23T11:00:00.000Z';
const ORDER = ['tor1', 'tor2', 'node009', 'node010'];

function observed(host: string, task: string, more: Partial<Observed> = {}): Observed {
  return {
    host,
    playbook: 'pb',
    task,
    kind: 'k',
    title: `resource of ${task}`,
    action: 'update',
    fields: ['f'],
    before: { f: 1 },
    after: { f: 2 },
    ...more,
  };
}
const item = (o: Observed, status: DriftItem['status'], firstSeen: string): DriftItem => ({ ...o, status, firstSeen });

const checked = (...os: Observed[]) => os.map(itemKey);

const rows: { name: string; now: Observed[]; previous: DriftItem[]; checked: string[]; want: DriftItem[] }[] = [
  {
    name: 'first run: everything is new, first seen now',
    now: [observed('tor2', 'conf')],
    previous: [],
    checked: checked(observed('tor2', 'conf')),
    want: [item(observed('tor2', 'conf'), 'new', T1)],
  },
  {
    name: 'seen before: persisting, first-seen kept (even when the values moved on)',
    now: [observed('tor2', 'conf', { after: { f: 3 } })],
    previous: [item(observed('tor2', 'conf'), 'new', T0)],
    checked: checked(observed('tor2', 'conf')),
    want: [item(observed('tor2', 'conf', { after: { f: 3 } }), 'persisting', T0)],
  },
  {
    name: 'checked and found as desired: resolved, once, with its first-seen time',
    now: [],
    previous: [item(observed('tor2', 'conf'), 'persisting', T0)],
    checked: checked(observed('tor2', 'conf')),
    want: [item(observed('tor2', 'conf'), 'resolved', T0)],
  },
  {
    name: 'a resolved item of the previous run is not resolved again',
    now: [],
    previous: [item(observed('tor2', 'conf'), 'resolved', T0)],
    checked: checked(observed('tor2', 'conf')),
    want: [],
  },
  {
    name: 'not checked this run (unreachable, or outside --limit): not resolved',
    now: [],
    previous: [item(observed('node009', 'w32time'), 'new', T0)],
    checked: [],
    want: [],
  },
  {
    name: 'an item is its resource on its host: a task without a kind and title is keyed by task and target',
    now: [
      observed('tor1', 'vip', { target: 'node009', kind: null, title: null }),
      observed('tor1', 'vip', { target: 'node010', kind: null, title: null }),
    ],
    previous: [item(observed('tor1', 'vip', { target: 'node009', kind: null, title: null }), 'new', T0)],
    checked: [],
    want: [
      item(observed('tor1', 'vip', { target: 'node009', kind: null, title: null }), 'persisting', T0),
      item(observed('tor1', 'vip', { target: 'node010', kind: null, title: null }), 'new', T1),
    ],
  },
  {
    name: 'inventory order of hosts, then playbook and task; a waiver of the previous run is not carried',
    now: [observed('node010', 'b'), observed('tor2', 'z'), observed('node010', 'a')],
    previous: [
      {
        ...item(observed('node009', 'gone'), 'new', T0),
        waiver: { reason: 'r', expires: '2026-12-31', expired: false, source: 'w.yml:1' },
      },
    ],
    checked: checked(observed('node009', 'gone')),
    want: [
      item(observed('tor2', 'z'), 'new', T1),
      item(observed('node009', 'gone'), 'resolved', T0),
      item(observed('node010', 'a'), 'new', T1),
      item(observed('node010', 'b'), 'new', T1),
    ],
  },
];

for (const r of rows) {
  test(`classify: ${r.name}`, (t) => {
    t.deepEqual(classify(r.now, r.previous, new Set(r.checked), T1, ORDER), r.want);
  });
}

test('mergeObserved: a resource two playbooks manage is one item, from the task that manages it for its own host', (t) => {
  const conf = { kind: 'linux.file', title: 'file /etc/keepalived/keepalived.conf' };
  const delegated = observed('tor2', 'torConfig', { ...conf, playbook: 'onboard-windows', target: 'node009' });
  const delegated2 = observed('tor2', 'torConfig', { ...conf, playbook: 'onboard-windows', target: 'node010' });
  const own = observed('tor2', 'config', { ...conf, playbook: 'tor-gateway' });
  t.deepEqual(mergeObserved([[delegated, delegated2], [own]]), [own]);
  t.deepEqual(mergeObserved([[delegated, delegated2]]), [delegated]);
});
