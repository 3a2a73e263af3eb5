// The kubectl stand-in (lab/cluster/kubectl.ts, a test double) as a process, through the same shell
// wrapper the lab installs on control1, against a temp cluster state: kubectl's outputs, errors, exit codes.
import test, { type ExecutionContext } from 'ava';
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleKubectl, kubectlWrapper } from '../../../lab/cluster/install.js';
import { humanDuration, jsonpath, kubectl as kubectlInProcess, table } from '../../../lab/cluster/kubectl.js';
import { type ClusterState, newClusterState, registerNode } from '../../../lab/cluster/cluster-state.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function cluster(t: ExecutionContext): {
  state: string;
  run: (...args: string[]) => Promise<Run>;
  read: () => ClusterState;
} {
  const dir = mkdtempSync(join(tmpdir(), 'play-kubectl-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const state = join(dir, 'cluster-state.json');
  const s = newClusterState();
  const old = new Date(Date.now() - 3 * 86_400_000 - 5 * 3_600_000);
  registerNode(
    s,
    {
      name: 'control1',
      ready: true,
      roles: ['master'],
      os: 'linux',
      addresses: [
        { type: 'InternalIP', address: '198.18.0.5' },
        { type: 'Hostname', address: 'control1' },
      ],
      osImage: 'Ubuntu 18.04.5 LTS',
      kernelVersion: '4.15.0-112-generic',
    },
    old,
  );
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
    new Date(Date.now() - 3 * 3_600_000 - 10_000),
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
    new Date(Date.now() - 3 * 3_600_000 - 10_000),
  );
  writeFileSync(state, JSON.stringify(s));
  const wrapper = join(dir, 'kubectl');
  writeFileSync(`${wrapper}.mjs`, bundleKubectl());
  writeFileSync(wrapper, kubectlWrapper(state, `${wrapper}.mjs`));
  chmodSync(wrapper, 0o755);
  const run = (...args: string[]) =>
    new Promise<Run>((resolve) => {
      execFile(wrapper, args, { encoding: 'utf8', cwd: '/' }, (e, stdout, stderr) =>
        resolve({ code: e ? Number(e.code) : 0, stdout, stderr }),
      );
    });
  return { state, run, read: () => JSON.parse(readFileSync(state, 'utf8')) as ClusterState };
}

test("get nodes: kubectl's table; -o wide adds the node columns", async (t) => {
  const { run } = cluster(t);
  const [plain, wide] = await Promise.all([run('get', 'nodes'), run('get', 'nodes', '-o', 'wide')]);
  t.is(plain.code, 0, plain.stderr);
  t.is(
    plain.stdout,
    [
      'NAME       STATUS     ROLES    AGE    VERSION',
      'control1   Ready      master   3d5h   v1.18.20',
      'node009    Ready      <none>   3h     v1.18.20',
      'node010    NotReady   <none>   3h     v1.18.20',
      '',
    ].join('\n'),
  );
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
  const { run } = cluster(t);
  const [cidr, ready, notReady, json, name, names] = await Promise.all([
    run('get', 'node', 'node009', '-o', 'jsonpath={.spec.podCIDR}'),
    run('get', 'node', 'node009', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'),
    run('get', 'nodes', 'node010', '-o=jsonpath=\'{.status.conditions[?(@.type=="Ready")].status}\''),
    run('get', 'node/node009', '-o', 'json'),
    run('get', 'nodes', '-o', 'name'),
    run('get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}'),
  ]);
  t.deepEqual(cidr, { code: 0, stdout: '198.19.1.0/24', stderr: '' });
  t.deepEqual(ready, { code: 0, stdout: 'True', stderr: '' });
  t.deepEqual(notReady, { code: 0, stdout: 'False', stderr: '' });
  const obj = JSON.parse(json.stdout);
  t.like(obj, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'node009', labels: { 'kubernetes.io/os': 'windows' } },
    spec: { podCIDR: '198.19.1.0/24', podCIDRs: ['198.19.1.0/24'] },
  });
  t.regex(json.stdout, /^\{\n {4}"apiVersion": "v1",/);
  t.is(name.stdout, 'node/control1\nnode/node009\nnode/node010\n');
  t.is(names.stdout, 'control1 node009 node010');
});

test('get svc -n kube-system kube-dns: the DNS service IP; table; other names are not found', async (t) => {
  const { run } = cluster(t);
  const [ip, tableOut, missing, otherNs] = await Promise.all([
    run('get', 'svc', '-n', 'kube-system', 'kube-dns', '-o', 'jsonpath={.spec.clusterIP}'),
    run('get', 'svc', 'kube-dns', '--namespace=kube-system'),
    run('get', 'svc', '-n', 'kube-system', 'nope'),
    run('get', 'svc', 'kube-dns'),
  ]);
  t.deepEqual(ip, { code: 0, stdout: '198.18.240.10', stderr: '' });
  t.regex(
    tableOut.stdout,
    /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nkube-dns\s+ClusterIP\s+198\.18\.240\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s+10d\n$/,
  );
  t.deepEqual(missing, { code: 1, stdout: '', stderr: 'Error from server (NotFound): services "nope" not found\n' });
  t.deepEqual(otherNs, {
    code: 1,
    stdout: '',
    stderr: 'Error from server (NotFound): services "kube-dns" not found\n',
  });
});

test("cordon, drain, uncordon: kubectl's messages, the state file follows, SchedulingDisabled shows", async (t) => {
  const { run, read } = cluster(t);
  t.deepEqual(await run('cordon', 'node009'), { code: 0, stdout: 'node/node009 cordoned\n', stderr: '' });
  t.true(read().nodes.node009!.unschedulable);
  t.deepEqual(await run('cordon', 'node009'), { code: 0, stdout: 'node/node009 already cordoned\n', stderr: '' });
  t.regex((await run('get', 'nodes')).stdout, /^node009\s+Ready,SchedulingDisabled\s/m);
  t.deepEqual(await run('uncordon', 'node009'), { code: 0, stdout: 'node/node009 uncordoned\n', stderr: '' });
  t.deepEqual(await run('uncordon', 'node009'), { code: 0, stdout: 'node/node009 already uncordoned\n', stderr: '' });
  t.deepEqual(await run('drain', 'node009', '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=300s'), {
    code: 0,
    stdout: 'node/node009 cordoned\nnode/node009 drained\n',
    stderr: '',
  });
  t.deepEqual(await run('drain', 'node009', '--ignore-daemonsets', '--delete-emptydir-data'), {
    code: 0,
    stdout: 'node/node009 already cordoned\nnode/node009 drained\n',
    stderr: '',
  });
  t.true(read().nodes.node009!.unschedulable);
});

test('delete node; unknown nodes are NotFound (exit 1); unimplemented commands exit 1 saying so', async (t) => {
  const { run, read } = cluster(t);
  t.deepEqual(await run('delete', 'node', 'node010'), { code: 0, stdout: 'node "node010" deleted\n', stderr: '' });
  t.false('node010' in read().nodes);
  const nf = 'Error from server (NotFound): nodes "node010" not found\n';
  const results = await Promise.all([
    run('delete', 'node', 'node010'),
    run('get', 'node', 'node010'),
    run('cordon', 'node010'),
    run('uncordon', 'node010'),
    run('drain', 'node010', '--ignore-daemonsets'),
    run('get', 'node', 'node010', '-o', 'jsonpath={.spec.podCIDR}'),
  ]);
  for (const r of results) t.deepEqual(r, { code: 1, stdout: '', stderr: nf });
  const [apply, pods, flag] = await Promise.all([
    run('apply', '-f', 'x.yaml'),
    run('get', 'deployments'),
    run('get', 'nodes', '--watch'),
  ]);
  t.is(apply.code, 1);
  t.regex(apply.stderr, /kubectl stand-in \(play lab, a test double\) does not implement/);
  t.is(pods.code, 1);
  t.regex(pods.stderr, /does not implement get deployments/);
  t.is(flag.code, 1);
  t.regex(flag.stderr, /does not implement the flag --watch/);
});

test('in process: no cluster file is a refused connection; no nodes prints "No resources found" on stderr', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-kubectl-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'c.json');
  const none = kubectlInProcess(file, ['get', 'nodes']);
  t.is(none.code, 1);
  t.regex(none.stderr, /The connection to the server .* was refused/);
  writeFileSync(file, JSON.stringify(newClusterState()));
  t.deepEqual(kubectlInProcess(file, ['get', 'nodes']), { code: 0, stdout: '', stderr: 'No resources found\n' });
  t.is(
    kubectlInProcess(file, ['get', 'nodes', '-o', 'json']).stdout,
    '{\n    "apiVersion": "v1",\n    "items": [],\n    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n',
  );
});

test('helpers: HumanDuration, the tabwriter, jsonpath', (t) => {
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
  t.is(
    table([
      ['NAME', 'X'],
      ['a-very-long-name', 'y'],
    ]),
    `${'NAME'.padEnd(19)}X\na-very-long-name   y\n`,
  );
  const obj = {
    a: [
      { k: 'x', v: 1 },
      { k: 'y', v: 2 },
    ],
    b: { c: 'd' },
  };
  t.is(jsonpath('{.a[?(@.k=="y")].v}', obj), '2');
  t.is(jsonpath('{.a[*].k} and {.b.c}{.missing}', obj), 'x y and d');
  t.is(jsonpath('{.a[0]}', obj), '{"k":"x","v":1}');
});
