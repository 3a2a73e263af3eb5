// kubectl drain, the real client (/usr/bin/kubectl), against the Kubernetes API double (lab/cluster/api/,
// a test double): whole outputs compared for each outcome. The texts are kubectl's own; the double's part
// is what it answers (the budget's 429 and its 5 s retry, the 500 for two budgets, the replacement pods).
// kubectl waits 5 s of real time before each retry of a refused eviction, so the blocked scenarios take
// 5 s or 10 s; ava runs them at once.
import test, { type ExecutionContext } from 'ava';
import type { ClusterState } from '../../../lab/cluster/cluster-state.js';
import { addBarePod, addDaemonSet, addPdb, addReplicaSet } from '../../../lab/cluster/workloads.js';
import { cluster, placement } from './fixture.js';

const FLAGS = ['--ignore-daemonsets', '--delete-emptydir-data', '--timeout=1s'];
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

/** Every order of `items`: kubectl groups a drain's warnings and refusals by message in a Go map, whose
 *  order is random from run to run. */
function inAnyOrder<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((x, i) => inAnyOrder([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** kubectl 1.32's last words on a failed drain (pkg/cmd/drain: RunDrain; an aggregate of several errors
 *  is `[e1, e2]` on the first line, one a line after). */
const failed = (node: string, errs: string[]) =>
  `error: unable to drain node "${node}" due to error: ${errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`}, continuing command...\n` +
  `There are pending nodes to be drained:\n ${node}\n${errs.map((e) => `${e}\n`).join('')}`;

test('PDB satisfied: the pod is evicted and re-created on another Ready node; DaemonSet pods stay', async (t) => {
  const c = setUp(t, (s) => {
    const [a] = web(s, ['node001', 'node002', 'node003']);
    addPdb(s, { name: 'web-pdb', minAvailable: 2, selector: { app: 'web' } });
    return { a: a! };
  });
  const before = placement(c.read());
  t.deepEqual(await c.kubectl('drain', 'node001', ...FLAGS), {
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

test('PDB violated: drain retries after 5s, then fails at --timeout naming the pod; the node stays cordoned', async (t) => {
  const c = setUp(t, (s) => {
    const [a] = web(s, ['node001', 'node002', 'node003']);
    addPdb(s, { name: 'web-pdb', minAvailable: 3, selector: { app: 'web' } });
    return { a: a! };
  });
  const a = c.names.a;
  const timeout = `error when evicting pods/"${a}" -n "default": global timeout reached: 1s`;
  t.deepEqual(await c.kubectl('drain', 'node001', ...FLAGS), {
    code: 1,
    stdout: `node/node001 cordoned\n${`evicting pod default/${a}\n`.repeat(2)}`,
    stderr:
      `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n` +
      `error when evicting pods/"${a}" -n "default" (will retry after 5s): ${VIOLATION}\n` +
      `There are pending pods in node "node001" when an error occurred: ${timeout}\npod/${a}\n${failed('node001', [timeout])}`,
  });
  t.true(c.read().nodes.node001!.unschedulable);
  t.true(placement(c.read()).includes(`default/${a}@node001`));
  t.deepEqual(
    c.events().map((e) => [e.kind, e.node ?? e.pod, e.pdb, e.reason]),
    [
      ['drain', 'node001', undefined, undefined],
      ['cordon', 'node001', undefined, undefined],
      [
        'eviction-refused',
        `default/${a}`,
        'default/web-pdb',
        'The disruption budget web-pdb needs 3 healthy pods and has 3 currently',
      ],
    ],
  );
});

test("two pods under one budget: the second is refused, then evicted once the first one's replacement is Ready", async (t) => {
  const c = setUp(t, (s) => {
    const [a, b] = web(s, ['node001', 'node001', 'node002']);
    addPdb(s, { name: 'web-pdb', maxUnavailable: 1, selector: { app: 'web' } });
    return { a: a!, b: b! };
  });
  const r = await c.kubectl('drain', 'node001', '--ignore-daemonsets', '--timeout=30s');
  // kubectl sends both evictions at once: which one the budget lets through first is the server's order.
  const [first, second] =
    c.events().find((e) => e.kind === 'eviction')!.pod === `default/${c.names.a}` ? ['a', 'b'] : ['b', 'a'];
  const [one, two] = [c.names[first!]!, c.names[second!]!];
  t.is(r.code, 0, r.stderr);
  t.deepEqual(
    r.stdout.split('\n').sort(),
    [
      '',
      `evicting pod default/${one}`,
      `evicting pod default/${two}`,
      `evicting pod default/${two}`,
      'node/node001 cordoned',
      'node/node001 drained',
      `pod/${one} evicted`,
      `pod/${two} evicted`,
    ].sort(),
  );
  t.regex(r.stdout, new RegExp(`evicting pod default/${two}\\npod/${two} evicted\\nnode/node001 drained\\n$`));
  t.is(
    r.stderr,
    `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n` +
      `error when evicting pods/"${two}" -n "default" (will retry after 5s): ${VIOLATION}\n`,
  );
  t.deepEqual(
    c.events().map((e) => [e.kind, e.pod ?? e.node]),
    [
      ['drain', 'node001'],
      ['cordon', 'node001'],
      ['eviction', `default/${one}`],
      ['eviction-refused', `default/${two}`],
      ['eviction', `default/${two}`],
    ],
  );
});

test('no node can take the replacement: it stays Pending, the budget stays spent, the drain times out', async (t) => {
  const c = setUp(t, (s) => {
    s.nodes.node002!.unschedulable = true;
    s.nodes.node003!.ready = false;
    web(s, ['node001', 'node001']);
    addPdb(s, { name: 'web-pdb', maxUnavailable: '50%', selector: { app: 'web' } });
    return {};
  });
  const r = await c.kubectl('drain', 'node001', ...FLAGS);
  t.is(r.code, 1);
  t.deepEqual(placement(c.read()).filter((p) => p.endsWith('@-')).length, 1);
  t.regex(
    r.stderr,
    /There are pending pods in node "node001" when an error occurred: error when evicting pods\/"web-7d9f-\w+" -n "default": global timeout reached: 1s\n/,
  );
  // Uncordoning node002 lets the scheduler place it.
  t.deepEqual(await c.kubectl('uncordon', 'node002'), { code: 0, stdout: 'node/node002 uncordoned\n', stderr: '' });
  t.deepEqual(
    placement(c.read()).filter((p) => p.endsWith('@-')),
    [],
  );
});

test("refusals before any eviction: DaemonSet without --ignore-daemonsets, bare pod without --force, emptyDir; kubectl's texts", async (t) => {
  // kubectl 1.32 says "cannot delete" twice for a bare pod: that filter's message already starts with it.
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
      () => ['cannot delete cannot delete Pods that declare no controller (use --force to override): default/debug'],
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
        'cannot delete cannot delete Pods that declare no controller (use --force to override): default/debug',
      ],
    ],
  ];
  for (const [what, extra, flags, errs] of rows) {
    const c = setUp(t, extra);
    const before = placement(c.read());
    const r = await c.kubectl('drain', 'node001', ...flags);
    t.deepEqual({ code: r.code, stdout: r.stdout }, { code: 1, stdout: 'node/node001 cordoned\n' }, what);
    t.true(
      inAnyOrder(errs(c.names))
        .map((e) => failed('node001', e))
        .includes(r.stderr),
      `${what}: ${r.stderr}`,
    );
    t.deepEqual(placement(c.read()), before, `${what}: nothing evicted`);
    t.true(c.read().nodes.node001!.unschedulable, `${what}: left cordoned, as kubectl leaves it`);
  }
});

test('bare pod with --force: a warning, evicted, not re-created', async (t) => {
  const c = setUp(t, (s) => ({ bare: addBarePod(s, { name: 'debug', node: 'node001' }).name }));
  const r = await c.kubectl('drain', 'node001', ...FLAGS, '--force', '--grace-period', '30');
  t.deepEqual(
    { code: r.code, stdout: r.stdout },
    { code: 0, stdout: 'node/node001 cordoned\nevicting pod default/debug\npod/debug evicted\nnode/node001 drained\n' },
  );
  const warnings = [
    `ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}`,
    'deleting Pods that declare no controller: default/debug',
  ];
  t.true(
    inAnyOrder(warnings)
      .map((w) => `Warning: ${w.join('; ')}\n`)
      .includes(r.stderr),
    r.stderr,
  );
  t.false(placement(c.read()).some((p) => p.startsWith('default/')));
});

test('a pod under two budgets: the API answers 500, kubectl does not retry it, the drain fails at once', async (t) => {
  const c = setUp(t, (s) => {
    const [a] = web(s, ['node001', 'node002']);
    addPdb(s, { name: 'web-a', maxUnavailable: 1, selector: { app: 'web' } });
    addPdb(s, { name: 'web-b', minAvailable: 0, selector: { app: 'web' } });
    return { a: a! };
  });
  const err = `error when evicting pods/"${c.names.a}" -n "default": This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.`;
  t.deepEqual(await c.kubectl('drain', 'node001', ...FLAGS), {
    code: 1,
    stdout: `node/node001 cordoned\nevicting pod default/${c.names.a}\n`,
    stderr:
      `Warning: ignoring DaemonSet-managed Pods: kube-system/${c.names.proxy}\n` +
      `There are pending pods in node "node001" when an error occurred: ${err}\npod/${c.names.a}\n${failed('node001', [err])}`,
  });
});
