// kubectl drain against the simulated cluster (lab/cluster/drain.ts, a test double), in process: whole
// outputs compared for each outcome, with kubectl's texts (docs/lab.md, "Simulated cluster").
import test, { type ExecutionContext } from 'ava';
import type { ClusterState } from '../../../lab/cluster/cluster-state.js';
import { addBarePod, addDaemonSet, addPdb, addReplicaSet } from '../../../lab/cluster/workloads.js';
import { cluster, placement } from './fixture.js';

const FLAGS = ['--ignore-daemonsets', '--delete-emptydir-data', '--timeout=10s'];
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

/** A cluster with kube-proxy (a DaemonSet) on every node plus `extra`; returns the pods' names. */
function setUp(t: ExecutionContext, extra: (s: ClusterState) => Record<string, string> = () => ({})) {
  let names: Record<string, string> = {};
  const c = cluster(t, (s) => {
    const proxies = addDaemonSet(s, { namespace: 'kube-system', name: 'kube-proxy', labels: { k8s: 'proxy' } });
    names = { proxy: proxies.find((p) => p.nodeName === 'node001')!.name, ...extra(s) };
  });
  return { ...c, names };
}

const web = (s: ClusterState, nodes: string[]) =>
  addReplicaSet(s, { name: 'web-7d9f', replicas: nodes.length, labels: { app: 'web' }, nodes }).map((p) => p.name);

const failed = (node: string, errs: string[]) =>
  `error: unable to drain node "${node}" due to error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}, continuing command...\n` +
  `There are pending nodes to be drained:\n ${node}\n${errs.map((e) => `${e}\n`).join('')}`;

test('PDB satisfied: the pod is evicted and re-created on another Ready node; DaemonSet pods stay', (t) => {
  const c = setUp(t, (s) => {
    const [a] = web(s, ['node001', 'node002', 'node003']);
    addPdb(s, { name: 'web-pdb', minAvailable: 2, selector: { app: 'web' } });
    return { a: a! };
  });
  const before = placement(c.read());
  t.deepEqual(c.run('drain', 'node001', ...FLAGS), {
    code: 0,
    stdout: `node/node001 cordoned\nevicting pod default/${c.names.a}\npod/${c.names.a} evicted\nnode/node001 drained\n`,
    stderr: `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n`,
  });
  const after = c.read();
  t.true(after.nodes.node001!.unschedulable);
  const added = placement(after).filter((p) => !before.includes(p));
  t.deepEqual(
    before.filter((p) => !placement(after).includes(p)),
    [`default/${c.names.a}@node001`],
  );
  t.is(added.length, 1);
  t.regex(added[0]!, /^default\/web-7d9f-[a-z0-9]{5}@node002$/); // least loaded, ties by name
  t.true(placement(after).includes(`kube-system/${c.names.proxy}@node001`));
});

test('PDB violated: drain retries every 5s until --timeout, then fails naming the pod; the node stays cordoned', (t) => {
  const c = setUp(t, (s) => {
    const [a] = web(s, ['node001', 'node002', 'node003']);
    addPdb(s, { name: 'web-pdb', minAvailable: 3, selector: { app: 'web' } });
    return { a: a! };
  });
  const a = c.names.a;
  const retry = `error when evicting pods/"${a}" -n "default" (will retry after 5s): ${VIOLATION}\n`;
  const timeout = `error when evicting pods/"${a}" -n "default": global timeout reached: 10s`;
  t.deepEqual(c.run('drain', 'node001', ...FLAGS), {
    code: 1,
    stdout: `node/node001 cordoned\n${`evicting pod default/${a}\n`.repeat(3)}`,
    stderr:
      `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n${retry}${retry}` +
      `There are pending pods in node "node001" when an error occurred: ${timeout}\npod/${a}\n${failed('node001', [timeout])}`,
  });
  t.true(c.read().nodes.node001!.unschedulable);
  t.true(placement(c.read()).includes(`default/${a}@node001`));
  const refused = c.events().filter((e) => e.kind === 'eviction-refused');
  t.deepEqual(
    refused.map((e) => [e.pod, e.pdb, e.reason, e.drainSeconds]),
    [
      [`default/${a}`, 'default/web-pdb', VIOLATION, 0],
      [`default/${a}`, 'default/web-pdb', VIOLATION, 5],
    ],
  );
  t.like(c.events().at(-1), { kind: 'drain', node: 'node001', outcome: 'failed', error: timeout });
});

test("two pods under one budget: the second is refused, then evicted once the first one's replacement is Ready", (t) => {
  const c = setUp(t, (s) => {
    const [a, b] = web(s, ['node001', 'node001', 'node002']);
    addPdb(s, { name: 'web-pdb', maxUnavailable: 1, selector: { app: 'web' } });
    return { a: a!, b: b! };
  });
  const { a, b } = c.names;
  const [first, second] = [a!, b!].sort();
  t.deepEqual(c.run('drain', 'node001', ...FLAGS), {
    code: 0,
    stdout:
      `node/node001 cordoned\nevicting pod default/${first}\nevicting pod default/${second}\npod/${first} evicted\n` +
      `evicting pod default/${second}\npod/${second} evicted\nnode/node001 drained\n`,
    stderr:
      `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n` +
      `error when evicting pods/"${second}" -n "default" (will retry after 5s): ${VIOLATION}\n`,
  });
  t.deepEqual(
    c.events().map((e) => [e.kind, e.pod ?? e.node, e.drainSeconds]),
    [
      ['cordon', 'node001', undefined],
      ['eviction', `default/${first}`, 0],
      ['eviction-refused', `default/${second}`, 0],
      ['eviction', `default/${second}`, 5],
      ['drain', 'node001', undefined],
    ],
  );
});

test('no node can take the replacement: it stays Pending, the budget stays spent, the drain times out', (t) => {
  const c = setUp(t, (s) => {
    s.nodes.node002!.unschedulable = true;
    s.nodes.node003!.ready = false;
    const [a, b] = web(s, ['node001', 'node001']);
    addPdb(s, { name: 'web-pdb', maxUnavailable: '50%', selector: { app: 'web' } });
    return { a: a!, b: b! };
  });
  const r = c.run('drain', 'node001', ...FLAGS);
  t.is(r.code, 1);
  const pending = placement(c.read()).filter((p) => p.endsWith('@-'));
  t.is(pending.length, 1);
  t.regex(
    r.stderr,
    /There are pending pods in node "node001" when an error occurred: error when evicting pods\/"web-7d9f-\w+" -n "default": global timeout reached: 10s\n/,
  );
  // Uncordoning node002 lets the scheduler place it.
  t.deepEqual(c.run('uncordon', 'node002'), { code: 0, stdout: 'node/node002 uncordoned\n', stderr: '' });
  t.deepEqual(
    placement(c.read()).filter((p) => p.endsWith('@-')),
    [],
  );
});

test("refusals before any eviction: DaemonSet without --ignore-daemonsets, bare pod without --force, emptyDir; kubectl's texts", (t) => {
  const rows: Array<
    [string, (s: ClusterState) => Record<string, string>, string[], (n: Record<string, string>) => string[]]
  > = [
    [
      'DaemonSet',
      () => ({}),
      ['--timeout=10s'],
      (n) => [`cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/${n.proxy}`],
    ],
    [
      'bare pod',
      (s) => ({ bare: addBarePod(s, { name: 'debug', node: 'node001' }).name }),
      ['--ignore-daemonsets', '--timeout=10s'],
      () => ['cannot delete Pods that declare no controller (use --force to override): default/debug'],
    ],
    [
      'emptyDir',
      (s) => ({
        cache: addReplicaSet(s, { name: 'cache-5c', replicas: 1, nodes: ['node001'], emptyDir: true })[0]!.name,
      }),
      ['--ignore-daemonsets', '--force'],
      (n) => [`cannot delete Pods with local storage (use --delete-emptydir-data to override): default/${n.cache}`],
    ],
    [
      'DaemonSet and bare pod',
      (s) => ({ bare: addBarePod(s, { name: 'debug', node: 'node001' }).name }),
      [],
      (n) => [
        `cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/${n.proxy}`,
        'cannot delete Pods that declare no controller (use --force to override): default/debug',
      ],
    ],
  ];
  for (const [what, extra, flags, errs] of rows) {
    const c = setUp(t, extra);
    const before = placement(c.read());
    t.deepEqual(
      c.run('drain', 'node001', ...flags),
      { code: 1, stdout: 'node/node001 cordoned\n', stderr: failed('node001', errs(c.names)) },
      what,
    );
    t.deepEqual(placement(c.read()), before, `${what}: nothing evicted`);
    t.true(c.read().nodes.node001!.unschedulable, `${what}: left cordoned, as kubectl leaves it`);
  }
});

test('bare pod with --force: a warning, evicted, not re-created; no --timeout with a blocked pod is refused', (t) => {
  const c = setUp(t, (s) => ({ bare: addBarePod(s, { name: 'debug', node: 'node001' }).name }));
  t.deepEqual(c.run('drain', 'node001', ...FLAGS, '--force', '--grace-period', '30'), {
    code: 0,
    stdout: 'node/node001 cordoned\nevicting pod default/debug\npod/debug evicted\nnode/node001 drained\n',
    stderr: `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}; deleting Pods that declare no controller: default/debug\n`,
  });
  t.false(placement(c.read()).some((p) => p.startsWith('default/')));

  const d = setUp(t, (s) => {
    web(s, ['node002']);
    addPdb(s, { name: 'web-pdb', minAvailable: '100%', selector: { app: 'web' } });
    return {};
  });
  const r = d.run('drain', 'node002', '--ignore-daemonsets');
  t.is(r.code, 1);
  t.regex(
    r.stderr,
    /^error: the kubectl stand-in \(play lab, a test double\) does not implement a drain without --timeout/,
  );
});

test('a pod under two budgets: the API answers 500, kubectl does not retry it, the drain fails at once', (t) => {
  const c = setUp(t, (s) => {
    const [a] = web(s, ['node001', 'node002']);
    addPdb(s, { name: 'web-a', maxUnavailable: 1, selector: { app: 'web' } });
    addPdb(s, { name: 'web-b', minAvailable: 0, selector: { app: 'web' } });
    return { a: a! };
  });
  const err = `error when evicting pods/"${c.names.a}" -n "default": This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.`;
  t.deepEqual(c.run('drain', 'node001', ...FLAGS), {
    code: 1,
    stdout: `node/node001 cordoned\nevicting pod default/${c.names.a}\n`,
    stderr:
      `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n` +
      `There are pending pods in node "node001" when an error occurred: ${err}\npod/${c.names.a}\n${failed('node001', [err])}`,
  });
});
