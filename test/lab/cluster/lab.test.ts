// `play lab up --control 1` on the shared lab (needs root): control1 answers SSH, the inventory gives
// playbooks kubectl's path, and that kubectl is the real one, talking over HTTPS to the Kubernetes API
// double (lab/cluster/api/, a test double) inside control1's namespace: it verifies the double's
// certificate, the double checks its token. Never takes the lab down; changes nothing in the cluster
// that other files rely on.
import test from 'ava';
import YAML from 'yaml';
import { readFileSync } from 'node:fs';
import { KUBECTL_PATH } from '../../../lab/paths.js';
import { planHost } from '../../../lab/hosts/topology.js';
import { inventoryYaml } from '../../../lab/inventory.js';
import { labStatus } from '../../../lab/lab.js';
import { KUBECONFIG_PATH, kubectlWrapper, REAL_KUBECTL, requireKubectl } from '../../../lab/cluster/install.js';
import { UsageError } from '../../../runner/core/errors.js';
import { ensureLab, sshRun } from '../../helpers/lab.js';

test('inventory: control1 at 198.18.0.5 in the control group with kubectl and cluster_state', (t) => {
  const files = { key: '/k', knownHosts: '/kh', clusterState: '/var/lib/play-lab/cluster-state.json' };
  const doc = YAML.parse(inventoryYaml([planHost('linux', 1), planHost('control', 1)], files));
  t.deepEqual(doc.all.children.control, {
    hosts: {
      control1: {
        ansible_host: '198.18.0.5',
        kubectl: '/opt/play-lab/bin/kubectl',
        cluster_state: '/var/lib/play-lab/cluster-state.json',
      },
    },
  });
  t.false('control' in YAML.parse(inventoryYaml([planHost('linux', 1)], files)).all.children);
});

test("control1's kubectl is the real one behind a wrapper; no kubectl is a failure naming the package", (t) => {
  t.is(
    kubectlWrapper(),
    [
      '#!/bin/sh',
      "# The play lab's kubectl (written by `play lab up`): the real kubectl, against the lab's Kubernetes API",
      '# double (lab/cluster/api/, a test double of kube-apiserver) on this host.',
      "exec '/usr/bin/kubectl' --kubeconfig '/opt/play-lab/kubeconfig' --cache-dir '/opt/play-lab/kube-cache' \"$@\"",
      '',
    ].join('\n'),
  );
  t.throws(() => requireKubectl('/nonexistent/kubectl'), {
    instanceOf: UsageError,
    message:
      "/nonexistent/kubectl not found: the lab's control host runs the real kubectl against its Kubernetes API double; install it with `apt-get install kubernetes-client`",
  });
});

const e2e = process.getuid?.() === 0 ? test.serial : test.skip;

e2e(
  'up --control 1: the real kubectl on control1 lists control1 as master; jsonpath and NotFound over SSH',
  async (t) => {
    const lab = await ensureLab({ linux: 4, control: 1 });
    const control = lab.host('control1');
    t.is(control.address, '198.18.0.5');
    t.is(control.group, 'control');
    const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
    t.like(inv.all.children.control.hosts.control1, { ansible_host: '198.18.0.5', kubectl: KUBECTL_PATH });
    const clusterState = inv.all.children.control.hosts.control1.cluster_state as string;

    const nodes = await sshRun(lab, control, `${KUBECTL_PATH} get nodes`);
    t.is(nodes.code, 0, nodes.stderr);
    t.regex(nodes.stdout, /^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\n/);
    t.regex(nodes.stdout, /^control1\s+Ready\s+master\s+\S+\s+v1\.18\.20$/m);
    const cidr = await sshRun(lab, control, `${KUBECTL_PATH} get node control1 -o jsonpath={.spec.podCIDR}`);
    t.deepEqual(cidr, { code: 0, stdout: '198.19.0.0/24', stderr: '' });
    const missing = await sshRun(lab, control, `${KUBECTL_PATH} get node no-such-node`);
    t.deepEqual(missing, {
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): nodes "no-such-node" not found\n',
    });
    // The real client, reporting the double's version; with another token the double says 401.
    const version = await sshRun(lab, control, `${KUBECTL_PATH} version -o json`);
    t.is(version.code, 0, version.stderr);
    t.like(JSON.parse(version.stdout), { serverVersion: { gitVersion: 'v1.24.17' } });
    t.regex(JSON.parse(version.stdout).clientVersion.gitVersion, /^v1\.\d+\./);
    // A fresh cache dir: kubectl's discovery meets the 401 first, and client-go words it its own way.
    const intruder = await sshRun(
      lab,
      control,
      `${REAL_KUBECTL} --kubeconfig ${KUBECONFIG_PATH} --cache-dir /tmp/kubectl-intruder-$$ --token wrong get nodes; rc=$?; rm -rf /tmp/kubectl-intruder-$$; exit $rc`,
    );
    t.is(intruder.code, 1);
    t.regex(
      intruder.stderr,
      /\nerror: You must be logged in to the server \(the server has asked for the client to provide credentials\)\n$/,
    );
    // The wrapper and kubeconfig are control1's alone (its private /opt); the state is the lab's.
    const other = await sshRun(lab, lab.host('linux1'), `test -e ${KUBECTL_PATH} && echo present || echo absent`);
    t.is(other.stdout, 'absent\n');
    t.true(JSON.parse(readFileSync(clusterState, 'utf8')).nodes.control1.podCIDR === '198.19.0.0/24');
    t.like((await labStatus()).clusterApi, { alive: true, reachable: true });
  },
);
