// The real kubectl (/usr/bin/kubectl) against the Kubernetes API double (lab/cluster/api/, a test double)
// over a temp cluster state: the outputs, errors and exit codes play and an operator see. kubectl prints
// them; the double's part is the objects, the Tables behind the human columns, and its refusals.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ClusterState, registerNode } from '../../../lab/cluster/cluster-state.js';
import { humanDuration } from '../../../lab/cluster/api/tables.js';
import { cluster as baseFixture } from './fixture.js';

function cluster(t: ExecutionContext) {
  return baseFixture(t, (s: ClusterState) => {
    delete s.nodes.node001;
    delete s.nodes.node002;
    delete s.nodes.node003;
    const old = new Date(Date.now() - 3 * 86_400_000 - 5 * 3_600_000);
    const control = s.nodes.control1!;
    control.registeredAt = old.toISOString();
    control.addresses = [
      { type: 'InternalIP', address: '198.18.0.5' },
      { type: 'Hostname', address: 'control1' },
    ];
    control.osImage = 'Ubuntu 18.04.5 LTS';
    control.kernelVersion = '4.15.0-112-generic';
    const recent = new Date(Date.now() - 3 * 3_600_000 - 10_000);
    registerNode(
      s,
      {
        name: 'node009',
        ready: true,
        os: 'windows',
        addresses: [
          { type: 'InternalIP', address: '198.18.1.9' },
          { type: 'Hostname', address: 'node009' },
        ],
        osImage: 'Windows Server 2019 Datacenter',
        kernelVersion: '10.0.17763.973',
        containerRuntime: 'docker://19.3.5',
      },
      recent,
    );
    registerNode(
      s,
      {
        name: 'node010',
        ready: false,
        os: 'windows',
        addresses: [
          { type: 'InternalIP', address: '198.18.1.10' },
          { type: 'Hostname', address: 'node010' },
        ],
      },
      recent,
    );
  });
}

test("get nodes: the server's Table as kubectl prints it; -o wide adds the node columns", async (t) => {
  const { kubectl } = cluster(t);
  const [plain, wide] = await Promise.all([kubectl('get', 'nodes'), kubectl('get', 'nodes', '-o', 'wide')]);
  t.deepEqual(plain, {
    code: 0,
    stdout: [
      'NAME       STATUS     ROLES    AGE    VERSION',
      'control1   Ready      master   3d5h   v1.18.20',
      'node009    Ready      <none>   3h     v1.18.20',
      'node010    NotReady   <none>   3h     v1.18.20',
      '',
    ].join('\n'),
    stderr: '',
  });
  t.is(wide.code, 0, wide.stderr);
  const lines = wide.stdout.trimEnd().split('\n');
  t.regex(
    lines[0]!,
    /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME$/,
  );
  t.regex(
    lines[2]!,
    /^node009\s+Ready\s+<none>\s+3h\s+v1\.18\.20\s+198\.18\.1\.9\s+<none>\s+Windows Server 2019 Datacenter\s+10\.0\.17763\.973\s+docker:\/\/19\.3\.5$/,
  );
});

test('get node NAME -o jsonpath: pod CIDR and the Ready condition; -o json and -o name', async (t) => {
  const { kubectl } = cluster(t);
  const [cidr, ready, notReady, json, name, names] = await Promise.all([
    kubectl('get', 'node', 'node009', '-o', 'jsonpath={.spec.podCIDR}'),
    kubectl('get', 'node', 'node009', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'),
    kubectl('get', 'nodes', 'node010', '-o=jsonpath=\'{.status.conditions[?(@.type=="Ready")].status}\''),
    kubectl('get', 'node/node009', '-o', 'json'),
    kubectl('get', 'nodes', '-o', 'name'),
    kubectl('get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}'),
  ]);
  t.deepEqual(cidr, { code: 0, stdout: '198.19.1.0/24', stderr: '' });
  t.deepEqual(ready, { code: 0, stdout: 'True', stderr: '' });
  t.deepEqual(notReady, { code: 0, stdout: "'False'", stderr: '' }, "kubectl prints the template's quotes");
  const obj = JSON.parse(json.stdout);
  t.like(obj, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node009', labels: { 'kubernetes.io/os': 'windows' } },
    spec: { podCIDR: '198.19.1.0/24', podCIDRs: ['198.19.1.0/24'] },
  });
  t.regex(obj.metadata.resourceVersion, /^\d+$/);
  t.regex(json.stdout, /^\{\n {4}"apiVersion": "v1",/);
  t.is(name.stdout, 'node/control1\nnode/node009\nnode/node010\n');
  t.is(names.stdout, 'control1 node009 node010');
});

test('get svc -n kube-system kube-dns: the DNS service IP; table; other names are not found', async (t) => {
  const { kubectl } = cluster(t);
  const [ip, tableOut, missing, otherNs] = await Promise.all([
    kubectl('get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'),
    kubectl('get', 'svc', 'kube-dns', '--namespace=kube-system'),
    kubectl('get', 'svc', '-n', 'kube-system', 'nope'),
    kubectl('get', 'svc', 'kube-dns'),
  ]);
  t.deepEqual(ip, { code: 0, stdout: '198.18.240.10', stderr: '' });
  t.regex(
    tableOut.stdout,
    /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkube-dns\s+ClusterIP\s+198\.18\.240\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s+3d5h\n$/,
  );
  t.deepEqual(missing, { code: 1, stdout: '', stderr: 'Error from server (NotFound): services "nope" not found\n' });
  t.deepEqual(otherNs, {
    code: 1,
    stdout: '',
    stderr: 'Error from server (NotFound): services "kube-dns" not found\n',
  });
});

test("cordon, drain, uncordon: kubectl's messages, the state file follows, SchedulingDisabled shows", async (t) => {
  const { kubectl, read } = cluster(t);
  t.deepEqual(await kubectl('cordon', 'node009'), { code: 0, stdout: 'node/node009 cordoned\n', stderr: '' });
  t.true(read().nodes.node009!.unschedulable);
  t.deepEqual(await kubectl('cordon', 'node009'), { code: 0, stdout: 'node/node009 already cordoned\n', stderr: '' });
  t.regex((await kubectl('get', 'nodes')).stdout, /^node009\s+Ready,SchedulingDisabled\s/m);
  t.deepEqual(await kubectl('uncordon', 'node009'), { code: 0, stdout: 'node/node009 uncordoned\n', stderr: '' });
  t.deepEqual(await kubectl('uncordon', 'node009'), {
    code: 0,
    stdout: 'node/node009 already uncordoned\n',
    stderr: '',
  });
  t.deepEqual(await kubectl('drain', 'node009', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=300s'), {
    code: 0,
    stdout: 'node/node009 cordoned\nnode/node009 drained\n',
    stderr: '',
  });
  t.deepEqual(await kubectl('drain', 'node009', '--ignore-daemonsets', '--delete-emptydir-data'), {
    code: 0,
    stdout: 'node/node009 already cordoned\nnode/node009 drained\n',
    stderr: '',
  });
  t.deepEqual(await kubectl('cordon', 'node010', '--dry-run=server'), {
    code: 0,
    stdout: 'node/node010 cordoned (server dry run)\n',
    stderr: '',
  });
  t.false(read().nodes.node010!.unschedulable, 'a dry run changes nothing');
});

test('delete node; unknown nodes are NotFound (exit 1); what the double does not keep, it refuses', async (t) => {
  const { kubectl, read } = cluster(t);
  t.deepEqual(await kubectl('delete', 'node', 'node010'), { code: 0, stdout: 'node "node010" deleted\n', stderr: '' });
  t.false('node010' in read().nodes);
  const nf = 'Error from server (NotFound): nodes "node010" not found\n';
  const results = await Promise.all([
    kubectl('delete', 'node', 'node010'),
    kubectl('get', 'node', 'node010'),
    kubectl('cordon', 'node010'),
    kubectl('uncordon', 'node010'),
    kubectl('drain', 'node010', '--ignore-daemonsets'),
    kubectl('get', 'node', 'node010', '-o', 'jsonpath={.spec.podCIDR}'),
  ]);
  for (const r of results) t.deepEqual(r, { code: 1, stdout: '', stderr: nf });
  const [label, deployments, watch] = await Promise.all([
    kubectl('label', 'node', 'node009', 'pool=a'),
    kubectl('get', 'deployments'),
    kubectl('get', 'nodes', '--watch'),
  ]);
  t.deepEqual(label, {
    code: 1,
    stdout: '',
    stderr:
      'The Node "node009" is invalid: metadata: Forbidden: the play lab API double changes only spec.unschedulable of a node\n',
  });
  t.deepEqual(deployments, {
    code: 1,
    stdout: '',
    stderr: 'error: the server doesn\'t have a resource type "deployments"\n',
  });
  t.is(watch.code, 1);
  t.regex(
    watch.stderr,
    /^Error from server \(MethodNotAllowed\): the server does not allow this method on the requested resource\n$/,
  );
});

test('an empty cluster: "No resources found" on stderr; -o json an empty List', async (t) => {
  const c = baseFixture(t, (s) => {
    s.nodes = {};
  });
  t.deepEqual(await c.kubectl('get', 'nodes'), { code: 0, stdout: '', stderr: 'No resources found\n' });
  t.deepEqual(await c.kubectl('get', 'nodes', '-o', 'json'), {
    code: 0,
    stdout:
      '{\n    "apiVersion": "v1",\n    "items": [],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
    stderr: '',
  });
});

test('leases with kubectl: create (from a file and from stdin), AlreadyExists, replace, delete', async (t) => {
  const { kubectl, kubectlWithInput, request } = cluster(t);
  const dir = mkdtempSync(join(tmpdir(), 'play-lease-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'lease.yaml');
  writeFileSync(
    file,
    'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata:\n  name: play-rollout\n  namespace: kube-system\nspec:\n  holderIdentity: run-1\n  leaseDurationSeconds: 30\n',
  );
  // kubectl first asks /openapi/v3 whether the server knows the kind, then leaves validation to it.
  t.deepEqual(await kubectl('create', '-f', file), {
    code: 0,
    stdout: 'lease.coordination.k8s.io/play-rollout created\n',
    stderr: '',
  });
  t.deepEqual(await kubectl('create', '-f', file), {
    code: 1,
    stdout: '',
    stderr: `Error from server (AlreadyExists): error when creating "${file}": leases.coordination.k8s.io "play-rollout" already exists\n`,
  });
  t.regex(
    (await kubectl('get', 'leases', '-A')).stdout,
    /^NAMESPACE\s+NAME\s+HOLDER\s+AGE\nkube-system\s+play-rollout\s+run-1\s+\d+s\n$/,
  );
  // A replace carries the resourceVersion it read: the current one is taken, an older one is a conflict.
  const read = (await request('GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/play-rollout')).body;
  const next = JSON.stringify({ ...read, spec: { ...read.spec, holderIdentity: 'run-2' } });
  t.deepEqual(await kubectlWithInput(next, 'replace', '-f', '-'), {
    code: 0,
    stdout: 'lease.coordination.k8s.io/play-rollout replaced\n',
    stderr: '',
  });
  t.deepEqual(await kubectlWithInput(next, 'replace', '-f', '-'), {
    code: 1,
    stdout: '',
    stderr:
      'Error from server (Conflict): error when replacing "STDIN": Operation cannot be fulfilled on leases.coordination.k8s.io "play-rollout": the object has been modified; please apply your changes to the latest version and try again\n',
  });
  t.deepEqual(await kubectl('delete', 'lease', '-n', 'kube-system', 'play-rollout'), {
    code: 0,
    stdout: 'lease.coordination.k8s.io "play-rollout" deleted\n',
    stderr: '',
  });
});

test("HumanDuration, the AGE column's text", (t) => {
  for (const [ms, want] of [
    [5_000, '5s'],
    [119_000, '119s'],
    [125_000, '2m5s'],
    [600_000, '10m'],
    [3 * 3_600_000 + 60_000, '3h1m'],
    [30 * 3_600_000, '30h'],
    [77 * 3_600_000, '3d5h'],
    [40 * 86_400_000, '40d'],
    [800 * 86_400_000, '2y70d'],
  ] as const) {
    t.is(humanDuration(ms), want, String(ms));
  }
});
