// `play lab up --control 1` on the shared lab (needs root): control1 answers SSH, the inventory
// gives playbooks the stand-in's path, and `kubectl get nodes` works over real SSH. Never takes the lab
// down; changes nothing in the cluster that other files rely on.
import test from 'ava';
import YAML from 'yaml';
import { readFileSync } from 'node:fs';
import { KUBECTL_PATH } from '../../../lab/paths.js';
import { planHost } from '../../../lab/hosts/topology.js';
import { inventoryYaml } from '../../../lab/inventory.js';
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

const e2e = process.getuid?.() === 0 ? test.serial : test.skip;

e2e(
  'up --control 1: ssh control1 kubectl get nodes lists control1 as master; jsonpath and NotFound over SSH',
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
    t.is(missing.code, 1);
    t.is(missing.stderr, 'Error from server (NotFound): nodes "no-such-node" not found\n');
    // The stand-in is control1's alone (its private /opt), and reads the lab's cluster state.
    const other = await sshRun(lab, lab.host('linux1'), `test -e ${KUBECTL_PATH} && echo present || echo absent`);
    t.is(other.stdout, 'absent\n');
    t.true(JSON.parse(readFileSync(clusterState, 'utf8')).nodes.control1.podCIDR === '198.19.0.0/24');
  },
);
