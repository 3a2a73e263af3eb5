// kubectlNodeRegistered and kubectlValue: the pure parser and diff on kubectl's real outputs, and the
// steps' scripts run with the local /bin/sh and the real kubectl against the lab's Kubernetes API double
// (lab/cluster/api/, a test double of kube-apiserver) over a temporary cluster state file.
import test from 'ava';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, RemoteError } from '../../../runner/core/errors.js';
import { NOOP } from '../../../runner/core/change.js';
import {
  backoffMs,
  diffNodeRegistered,
  kubectlNodeRegistered,
  kubectlValue,
  nodePodCidr,
  parseKubectlRun,
} from '../../../tasks/linux/index.js';
import { newClusterState, registerNode, updateClusterState } from '../../../lab/cluster/cluster-state.js';
import { kubectlWrapper } from '../../../lab/cluster/install.js';
import { type ApiDouble, KUBECTL, startApiDouble } from '../../lab/cluster/api-double.js';
import { converge, HOSTILE, localHost, plan, removeHosts } from './local-remote.js';

const dirs: string[] = [];
const doubles: ApiDouble[] = [];
test.after.always('remove the temp directories', async () => {
  removeHosts();
  for (const d of doubles) await d.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const run = (stdout: string, code = 0) => ({ stdout, stderr: '', code });

test('parseKubectlRun: exit code and output lines, even when empty', (t) => {
  t.deepEqual(parseKubectlRun('x', run('rc 0\nout 198.19.1.0/24\n')), { code: 0, output: '198.19.1.0/24' });
  t.deepEqual(parseKubectlRun('x', run('rc 0\nout \n')), { code: 0, output: '' });
  t.deepEqual(parseKubectlRun('x', run('rc 1\nout Error from server (NotFound): nodes "node009" not found\n')), {
    code: 1,
    output: 'Error from server (NotFound): nodes "node009" not found',
  });
  t.throws(() => parseKubectlRun('x', run('garbage\n')), { message: /expected 'rc'/ });
  t.throws(() => parseKubectlRun('x', run('rc 0\nstray\n')), { message: /expected 'out'/ });
});

test('nodePodCidr: NotFound is absent, empty is registered without a CIDR, other errors and nonsense fail', (t) => {
  t.deepEqual(nodePodCidr('n', { code: 1, output: 'Error from server (NotFound): nodes "node009" not found' }), {
    podCidr: null,
  });
  t.deepEqual(nodePodCidr('n', { code: 0, output: '' }), { podCidr: '' });
  t.deepEqual(nodePodCidr('n', { code: 0, output: '10.160.11.0/24' }), { podCidr: '10.160.11.0/24' });
  const e = t.throws(
    () =>
      nodePodCidr('n', {
        code: 1,
        output: 'The connection to the server 198.18.0.5:6443 was refused - did you specify the right host or port?',
      }),
    { instanceOf: RemoteError },
  );
  t.regex(e.message, /kubectl exited 1: The connection to the server .* was refused/);
  t.throws(() => nodePodCidr('n', { code: 0, output: '<no value>' }), { message: /not a pod CIDR/ });
});

test('diffNodeRegistered: a pod CIDR is noop; absent or without CIDR is run', (t) => {
  const d = { kubectl: 'kubectl', node: 'node009', timeoutSec: 30 };
  t.is(diffNodeRegistered(d, { podCidr: '10.160.11.0/24' }), NOOP);
  t.deepEqual(diffNodeRegistered(d, { podCidr: null }), {
    action: 'run',
    fields: ['registered'],
    before: { registered: 'not registered' },
    after: { registered: 'node009 with a pod CIDR' },
  });
  t.deepEqual(diffNodeRegistered(d, { podCidr: '' }), {
    action: 'run',
    fields: ['registered'],
    before: { registered: 'registered without a pod CIDR' },
    after: { registered: 'node009 with a pod CIDR' },
  });
  t.deepEqual([0, 1, 2, 3, 4, 10].map(backoffMs), [500, 1000, 2000, 4000, 5000, 5000]);
});

test('options are checked when the step is built', (t) => {
  t.throws(() => kubectlNodeRegistered({ kubectl: '', node: 'n' }), { instanceOf: InputError, message: /'kubectl'/ });
  t.throws(() => kubectlNodeRegistered({ kubectl: '--kubeconfig=x', node: 'n' }), {
    instanceOf: InputError,
    message: /'kubectl'/,
  });
  t.throws(() => kubectlNodeRegistered({ kubectl: 'kubectl', node: 'Node_9' }), {
    instanceOf: InputError,
    message: /'node'/,
  });
  t.throws(() => kubectlNodeRegistered({ kubectl: 'kubectl', node: 'n', timeoutSec: 0 }), {
    instanceOf: InputError,
    message: /'timeoutSec'/,
  });
  t.throws(() => kubectlValue({ kubectl: 'kubectl', args: [] }), { instanceOf: InputError, message: /'args'/ });
  t.notThrows(() => kubectlValue({ kubectl: '/opt/play-lab/bin/kubectl', args: [...HOSTILE] }));
});

/** A kubectl wrapper like the lab's (the real kubectl), against an API double over a fresh state file. */
async function cluster(): Promise<{ kubectl: string; state: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'play-kubectl-'));
  dirs.push(dir);
  const state = join(dir, 'cluster-state.json');
  updateClusterState(state, () => {}, newClusterState());
  const api = await startApiDouble(state);
  doubles.push(api);
  const kubectl = join(dir, 'kubectl');
  writeFileSync(kubectl, kubectlWrapper(KUBECTL, api.kubeconfig, join(dir, 'cache')));
  chmodSync(kubectl, 0o755);
  return { kubectl, state };
}

test('against the real kubectl and the API double: NotFound plans run; apply waits until the node registers; then noop with its pod CIDR', async (t) => {
  const { kubectl, state } = await cluster();
  const h = localHost();
  const step = kubectlNodeRegistered({ kubectl, node: 'node009', timeoutSec: 30 });
  const first = await plan(h, step);
  t.deepEqual(first.actual, { podCidr: null });
  t.is(first.change.action, 'run');
  // The node's kubelet registers it a little later.
  let registered = false;
  const registering = new Promise<void>((res) =>
    setTimeout(() => {
      registered = true;
      updateClusterState(state, (s) => {
        registerNode(s, {
          name: 'node009',
          ready: false,
          addresses: [{ type: 'InternalIP', address: '198.18.1.9' }],
          os: 'windows',
        });
      });
      res();
    }, 1500),
  );
  const { change, rest } = await converge(h, step);
  t.true(registered, 'apply returned only once the node had registered');
  await registering;
  t.is(change.action, 'run');
  t.is(rest, NOOP);
  const after = await plan(h, step);
  t.deepEqual(
    step.outputs!(step.desired, after.actual),
    { podCidr: '198.19.0.0/24' },
    'the first /24 of the cluster CIDR',
  );

  const dns = kubectlValue({
    kubectl,
    args: ['get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'],
  });
  const got = await plan(h, dns);
  t.is(got.change, NOOP);
  t.deepEqual(dns.outputs!(dns.desired, got.actual), { value: '198.18.240.10' });
  const missing = kubectlValue({ kubectl, args: ['get', 'svc', '-n', 'kube-system', 'nope'] });
  await t.throwsAsync(plan(h, missing), {
    message: /kubectl exited 1: Error from server \(NotFound\): services "nope" not found/,
  });
});

test('apply gives up after timeoutSec, saying what it waited for', async (t) => {
  const { kubectl } = await cluster();
  const h = localHost();
  const step = kubectlNodeRegistered({ kubectl, node: 'node404', timeoutSec: 2 });
  const { actual, change } = await plan(h, step);
  await t.throwsAsync(step.apply(h, change, actual, step.desired) as Promise<unknown>, {
    message: /node node404 registered: still not registered after 2 s/,
  });
});
