// Pods, PodDisruptionBudgets, cordon texts, the event log and the neverReady knob of the simulated cluster
// (lab/cluster/, a test double): the arithmetic in process, the rest through the real kubectl and the
// Kubernetes API double (lab/cluster/api/).
import test from 'ava';
import type { ClusterState } from '../../../lab/cluster/cluster-state.js';
import { maxCordoned } from '../../../lab/cluster/events.js';
import { pdbStatus, scaledValue } from '../../../lab/cluster/pdb.js';
import { reportedReady } from '../../../lab/cluster/ready.js';
import { addBarePod, addDaemonSet, addPdb, addReplicaSet } from '../../../lab/cluster/workloads.js';
import { baseCluster, cluster } from './fixture.js';

test('PDB arithmetic: percentages of minAvailable and maxUnavailable round up; never below 0', (t) => {
  const rows: Array<
    [string, { minAvailable: number | string } | { maxUnavailable: number | string }, number, number, string]
  > = [
    // budget, replicas, unhealthy, want: expected/desired/current/allowed
    ['minAvailable 2 of 3', { minAvailable: 2 }, 3, 0, '3/2/3/1'],
    ['minAvailable 50% of 3 (1.5 -> 2)', { minAvailable: '50%' }, 3, 0, '3/2/3/1'],
    ['minAvailable 50% of 7 (3.5 -> 4)', { minAvailable: '50%' }, 7, 0, '7/4/7/3'],
    ['minAvailable 100%', { minAvailable: '100%' }, 3, 0, '3/3/3/0'],
    ['minAvailable 2 of 3, one unhealthy', { minAvailable: 2 }, 3, 1, '3/2/2/0'],
    ['maxUnavailable 1 of 3', { maxUnavailable: 1 }, 3, 0, '3/2/3/1'],
    ['maxUnavailable 25% of 3 (0.75 -> 1)', { maxUnavailable: '25%' }, 3, 0, '3/2/3/1'],
    ['maxUnavailable 50% of 3 (1.5 -> 2)', { maxUnavailable: '50%' }, 3, 0, '3/1/3/2'],
    ['maxUnavailable 0%', { maxUnavailable: '0%' }, 3, 0, '3/3/3/0'],
    ['maxUnavailable 5 of 3 (desired clamps at 0)', { maxUnavailable: 5 }, 3, 0, '3/0/3/3'],
    ['maxUnavailable 1, no pods', { maxUnavailable: 1 }, 0, 0, '0/0/0/0'],
  ];
  const got = rows.map(([what, budget, replicas, unhealthy]) => {
    const s = baseCluster();
    const pods = addReplicaSet(s, {
      name: 'web-1',
      replicas,
      labels: { app: 'web' },
      nodes: ['node001', 'node002', 'node003'],
    });
    for (const p of pods.slice(0, unhealthy)) p.ready = false;
    const b = addPdb(s, { name: 'p', selector: { app: 'web' }, ...budget } as Parameters<typeof addPdb>[1]);
    const st = pdbStatus(s, b);
    return [what, `${st.expectedPods}/${st.desiredHealthy}/${st.currentHealthy}/${st.disruptionsAllowed}`];
  });
  t.deepEqual(
    got,
    rows.map(([what, , , , want]) => [what, want]),
  );
  t.is(scaledValue('33%', 10, false), 3);
  t.throws(() => scaledValue('half', 10, true), { message: /invalid value "half"/ });
});

test('get pods -A --field-selector spec.nodeName=NODE: JSON with owners; -o wide; get pdb -A -o json and its table', async (t) => {
  const c = cluster(t, (s: ClusterState) => {
    addDaemonSet(s, { namespace: 'kube-system', name: 'kube-proxy', labels: { k8s: 'proxy' } });
    addReplicaSet(s, { name: 'web-7d9f', replicas: 2, labels: { app: 'web' }, nodes: ['node001', 'node002'] });
    addBarePod(s, { name: 'debug', node: 'node001', emptyDir: true });
    addPdb(s, { name: 'web-pdb', maxUnavailable: '50%', selector: { app: 'web' } });
  });
  const json = await c.kubectl('get', 'pods', '-A', '-o', 'json', '--field-selector', 'spec.nodeName=node001');
  t.is(json.code, 0, json.stderr);
  const items = JSON.parse(json.stdout).items as Array<Record<string, any>>;
  t.deepEqual(
    items.map((p) => [
      p.apiVersion,
      p.kind,
      p.metadata.namespace,
      p.metadata.name.replace(/-\w{5}$/, '-*'),
      p.metadata.ownerReferences?.[0]?.kind ?? 'none',
      p.spec.nodeName,
      p.status.phase,
      p.spec.volumes.length,
    ]),
    [
      ['v1', 'Pod', 'default', 'debug', 'none', 'node001', 'Running', 1],
      ['v1', 'Pod', 'default', 'web-7d9f-*', 'ReplicaSet', 'node001', 'Running', 0],
      ['v1', 'Pod', 'kube-system', 'kube-proxy-*', 'DaemonSet', 'node001', 'Running', 0],
    ],
  );
  const wide = (
    await c.kubectl('get', 'pods', '-A', '-o', 'wide', '--field-selector=spec.nodeName=node002')
  ).stdout.split('\n');
  t.regex(
    wide[0]!,
    /^NAMESPACE\s+NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/,
  );
  t.regex(
    wide[1]!,
    /^default\s+web-7d9f-\w{5}\s+1\/1\s+Running\s+0\s+\d+s\s+198\.19\.2\.\d+\s+node002\s+<none>\s+<none>$/,
  );
  t.deepEqual(await c.kubectl('get', 'pods', '-n', 'nope'), {
    code: 0,
    stdout: '',
    stderr: 'No resources found in nope namespace.\n',
  });
  const pdb = JSON.parse((await c.kubectl('get', 'pdb', '-A', '-o', 'json')).stdout).items[0];
  t.like(pdb, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name: 'web-pdb', namespace: 'default' },
    spec: { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } },
    status: { currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1, expectedPods: 2 },
  });
  t.regex(
    (await c.kubectl('get', 'pdb', '-A')).stdout,
    /^NAMESPACE\s+NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE\ndefault\s+web-pdb\s+N\/A\s+50%\s+1\s+\d+s\n$/,
  );
});

test('cordon/uncordon texts, spec.unschedulable, and the event log: who, what, the cordoned set after each', async (t) => {
  const c = cluster(t);
  const texts: string[][] = [];
  for (const args of [
    ['cordon', 'node001'],
    ['cordon', 'node001'],
    ['cordon', 'node/node002'],
    ['uncordon', 'node001'],
    ['uncordon', 'node001'],
    ['drain', 'node003', '--ignore-daemonsets', '--timeout=30s'],
    ['uncordon', 'node002'],
  ])
    texts.push([args.join(' '), (await c.kubectl(...args)).stdout]);
  t.deepEqual(texts, [
    ['cordon node001', 'node/node001 cordoned\n'],
    ['cordon node001', 'node/node001 already cordoned\n'],
    ['cordon node/node002', 'node/node002 cordoned\n'],
    ['uncordon node001', 'node/node001 uncordoned\n'],
    ['uncordon node001', 'node/node001 already uncordoned\n'],
    ['drain node003 --ignore-daemonsets --timeout=30s', 'node/node003 cordoned\nnode/node003 drained\n'],
    ['uncordon node002', 'node/node002 uncordoned\n'],
  ]);
  const spec = JSON.parse((await c.kubectl('get', 'node', 'node003', '-o', 'json')).stdout).spec;
  t.like(spec, { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] });
  const events = c.events();
  // kubectl reads the node first and sends nothing when it already is as asked: no event for those.
  t.deepEqual(
    events.map((e) => [e.seq, e.kind, e.node, e.cordoned.join(',')]),
    [
      [1, 'cordon', 'node001', 'node001'],
      [2, 'cordon', 'node002', 'node001,node002'],
      [3, 'uncordon', 'node001', 'node002'],
      [4, 'drain', 'node003', 'node002'],
      [5, 'cordon', 'node003', 'node002,node003'],
      [6, 'uncordon', 'node002', 'node003'],
    ],
  );
  t.like(events[3]!.who, { from: '127.0.0.1', command: 'kubectl drain' });
  t.regex(events[3]!.who.agent ?? '', /^kubectl\/v1\.\d+\.\d+ /);
  t.is(events[3]!.who.session, events[4]!.who.session, "the drain's cordon is in the drain's session");
  t.not(events[0]!.who.session, events[1]!.who.session);
  t.true(events.every((e, i) => i === 0 || e.at >= events[i - 1]!.at));
  t.like(maxCordoned(events), { count: 2, nodes: ['node001', 'node002'], seq: 2 });
  t.deepEqual(await c.kubectl('cordon', 'node404'), {
    code: 1,
    stdout: '',
    stderr: 'Error from server (NotFound): nodes "node404" not found\n',
  });
  t.is(c.events().length, 6, 'a refused call is not an event');
});

test('neverReady: the kubelet is never reported Ready while the knob is set', (t) => {
  t.deepEqual(
    [
      reportedReady(undefined, true),
      reportedReady({}, true),
      reportedReady({ neverReady: true }, true),
      reportedReady({ neverReady: true }, false),
      reportedReady({}, false),
    ],
    [true, true, false, false, false],
  );
});
