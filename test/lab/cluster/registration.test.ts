// Node registration by the simulated Windows node (lab/windows/cluster-registration.ts, a test double):
// an in-process node with a temp cluster state; the kubeconfig and the kubelet and kube-proxy services
// made through the node's own calls, as the steps make them.
import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ClusterState, newClusterState } from '../../../lab/cluster/cluster-state.js';
import { setNeverReady } from '../../../lab/cluster/ready.js';
import { flagValue } from '../../../lab/windows/cluster-registration.js';
import type { PlayFunctionName } from '../../../tasks/windows/remote/contract.js';
import { run, startNode, tempDir } from '../windows/helpers.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const KUBECONFIG = 'apiVersion: v1\nclusters:\n- cluster:\n    server: https://198.18.0.5:6443\n  name: kubernetes\n';
const KUBELET =
  'C:\\k\\kubelet.exe --windows-service --v=6 --kubeconfig=C:\\k\\kubeconfig.conf --hostname-override=node009 --node-ip=198.18.1.9 --cgroups-per-qos=false --enforce-node-allocatable=""';
const PROXY =
  'C:\\k\\kube-proxy.exe --windows-service --proxy-mode=kernelspace --network-name=l2bridge --kubeconfig=C:\\k\\kubeconfig.conf --hostname-override=node009';

async function setUp(t: ExecutionContext, o: { createCluster?: boolean } = {}) {
  const dir = tempDir(t);
  const clusterState = join(dir, 'cluster-state.json');
  const cluster = newClusterState();
  cluster.nodes.control1 = {
    name: 'control1',
    podCIDR: '198.19.0.0/24',
    ready: true,
    unschedulable: false,
    addresses: [],
    registeredAt: new Date().toISOString(),
    roles: ['master'],
  };
  if (o.createCluster !== false) writeFileSync(clusterState, JSON.stringify(cluster));
  const running = await startNode(t, { clusterState }, dir);
  const call = (fn: PlayFunctionName, args: Record<string, unknown>) => run(running.node, fn, args as never);
  const read = () => JSON.parse(readFileSync(clusterState, 'utf8')) as ClusterState;
  const file = (path: string, content: string) =>
    call('Set-PlayFile', { path, contentBase64: b64(content), expectedSha256: null });
  const service = (name: string, binPath: string) =>
    call('Set-PlayService', { name, create: true, binPath, startMode: 'Auto' });
  const state = (name: string, action: 'start' | 'stop' | 'restart') => call('Set-PlayServiceState', { name, action });
  // The binaries must exist for their services to start.
  await file('C:\\k\\kubelet.exe', 'MZ kubelet');
  await file('C:\\k\\kube-proxy.exe', 'MZ kube-proxy');
  return {
    running,
    clusterState,
    cluster,
    read,
    file,
    service,
    state,
    write: (c: ClusterState) => writeFileSync(clusterState, JSON.stringify(c)),
  };
}

test('kubelet running with a kubeconfig registers the node with a /24; Ready once kube-proxy runs too; NotReady when it stops', async (t) => {
  const { read, file, service, state } = await setUp(t);
  await service('kubelet', KUBELET);
  await service('kubeproxy', PROXY);
  t.false('node009' in read().nodes);
  // Running, but no kubeconfig yet: kubelet cannot reach the API server.
  await state('kubelet', 'start');
  t.false('node009' in read().nodes);
  await state('kubelet', 'stop');
  await file('C:\\k\\kubeconfig.conf', KUBECONFIG);
  await state('kubelet', 'start');
  const registered = read().nodes.node009!;
  t.like(registered, {
    name: 'node009',
    podCIDR: '198.19.1.0/24',
    ready: false,
    unschedulable: false,
    os: 'windows',
    osImage: 'Windows Server 2019 Datacenter',
    kernelVersion: '10.0.17763.973',
  });
  t.deepEqual(registered.addresses, [
    { type: 'InternalIP', address: '198.18.1.9' },
    { type: 'Hostname', address: 'node009' },
  ]);
  t.regex(registered.podCIDR, /^198\.19\.\d+\.0\/24$/);
  await state('kubeproxy', 'start');
  t.true(read().nodes.node009!.ready);
  await state('kubeproxy', 'stop');
  t.false(read().nodes.node009!.ready);
  await state('kubeproxy', 'start');
  t.true(read().nodes.node009!.ready);
  await state('kubelet', 'stop');
  t.like(read().nodes.node009, { ready: false, podCIDR: '198.19.1.0/24', registeredAt: registered.registeredAt });
});

test('later registrations keep the pod CIDR and the cordon; a deleted node registers again at the next start', async (t) => {
  const { read, write, file, service, state } = await setUp(t);
  await file('C:\\k\\kubeconfig.conf', KUBECONFIG);
  await service('kubelet', KUBELET);
  await service('kubeproxy', PROXY);
  await state('kubelet', 'start');
  await state('kubeproxy', 'start');
  const first = read().nodes.node009!;
  const c = read();
  c.nodes.node009!.unschedulable = true;
  write(c);
  await state('kubelet', 'restart');
  t.like(read().nodes.node009, {
    podCIDR: first.podCIDR,
    unschedulable: true,
    ready: true,
    registeredAt: first.registeredAt,
  });
  // kubectl delete node, then the kubelet is restarted (docs/field-notes.md#d-re-adding-a-deleted-node).
  const d = read();
  delete d.nodes.node009;
  write(d);
  await state('kubeproxy', 'stop');
  await state('kubelet', 'restart');
  t.like(read().nodes.node009, { podCIDR: '198.19.1.0/24', unschedulable: false, ready: false });
});

test('an nssm-hosted kubelet registers too; an empty kubeconfig or one without server: does not', async (t) => {
  const { read, file, service, state, running } = await setUp(t);
  await file('C:\\k\\nssm.exe', 'MZ nssm');
  await run(running.node, 'Set-PlayNssmService', {
    name: 'kubelet',
    install: true,
    application: 'C:\\k\\kubelet.exe',
    appParameters: '--kubeconfig C:\\k\\config --hostname-override=Node011',
  });
  await file('C:\\k\\config', '');
  await state('kubelet', 'start');
  t.false('node011' in read().nodes);
  await state('kubelet', 'stop');
  await file('C:\\k\\config2', 'apiVersion: v1\n');
  await run(running.node, 'Set-PlayNssmService', {
    name: 'kubelet',
    install: false,
    appParameters: '--kubeconfig C:\\k\\config2 --hostname-override=Node011',
  });
  await state('kubelet', 'start');
  t.false('node011' in read().nodes);
  await state('kubelet', 'stop');
  await file('C:\\k\\config3', KUBECONFIG);
  await run(running.node, 'Set-PlayNssmService', {
    name: 'kubelet',
    install: false,
    appParameters: '--kubeconfig C:\\k\\config3 --hostname-override=Node011',
  });
  await state('kubelet', 'start');
  t.like(read().nodes.node011, { podCIDR: '198.19.1.0/24', ready: false });
  await service('kube-proxy', '"C:\\k\\kube-proxy.exe" --proxy-mode=kernelspace');
  await state('kube-proxy', 'start');
  t.true(read().nodes.node011!.ready);
});

test('no cluster state file: no API server, nothing registers and no file is made', async (t) => {
  const { clusterState, file, service, state } = await setUp(t, { createCluster: false });
  await file('C:\\k\\kubeconfig.conf', KUBECONFIG);
  await service('kubelet', KUBELET);
  await state('kubelet', 'start');
  t.false(existsSync(clusterState));
});

test('a reboot takes the node NotReady while down; Auto services bring it back Ready', async (t) => {
  const { read, file, service, state, running } = await setUp(t);
  await file('C:\\k\\kubeconfig.conf', KUBECONFIG);
  await service('kubelet', KUBELET);
  await service('kubeproxy', PROXY);
  await state('kubelet', 'start');
  await state('kubeproxy', 'start');
  t.true(read().nodes.node009!.ready);
  running.node.rebootSeconds = 0.3;
  running.node.scheduleReboot(0);
  await new Promise<void>((resolve) => running.node.once('down', () => resolve()));
  t.false(read().nodes.node009!.ready);
  await new Promise<void>((resolve) => running.node.once('up', () => resolve()));
  t.true(read().nodes.node009!.ready);
});

test('neverReady (lab/cluster/ready.ts): after its reboot the node stays NotReady; cleared, the next change brings it back', async (t) => {
  const { read, file, service, state, running, clusterState } = await setUp(t);
  await file('C:\\k\\kubeconfig.conf', KUBECONFIG);
  await service('kubelet', KUBELET);
  await service('kubeproxy', PROXY);
  await state('kubelet', 'start');
  await state('kubeproxy', 'start');
  t.true(read().nodes.node009!.ready);
  setNeverReady(clusterState, 'node009', true);
  t.true(read().nodes.node009!.ready, 'the knob alone changes nothing now');
  running.node.rebootSeconds = 0.3;
  running.node.scheduleReboot(0);
  await new Promise<void>((resolve) => running.node.once('up', () => resolve()));
  t.like(read().nodes.node009, { ready: false, neverReady: true });
  setNeverReady(clusterState, 'node009', false);
  await state('kubeproxy', 'restart');
  t.true(read().nodes.node009!.ready);
  t.throws(() => setNeverReady(clusterState, 'node404', true), { message: /no node node404/ });
});

test('flagValue: = or space, quoted or not', (t) => {
  t.is(flagValue('x.exe --kubeconfig=C:\\k\\c --a', 'kubeconfig'), 'C:\\k\\c');
  t.is(flagValue('x.exe --kubeconfig C:\\k\\c', 'kubeconfig'), 'C:\\k\\c');
  t.is(flagValue('x.exe --kubeconfig="C:\\a b\\c" --x', 'kubeconfig'), 'C:\\a b\\c');
  t.is(flagValue('x.exe --kubeconfig-dir=C:\\k', 'kubeconfig'), undefined);
  t.is(flagValue('x.exe', 'kubeconfig'), undefined);
});
