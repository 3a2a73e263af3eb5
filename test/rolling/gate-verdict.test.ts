// The pod-network gate's verdict (runner/rolling/gate/): every check's pure judge over what its probe
// saw, and the gate's one-line message, compared whole for a table of nodes after their reboot. The
// checks are the ones hotfix-windows declares, built with onboard-windows' values.
import test from 'ava';
import type { HostView } from '../../runner/playbook/define.js';
import type { GateTarget, Seen } from '../../runner/rolling/gate/model.js';
import { parseAddresses } from '../../runner/rolling/gate/gateway-vip.js';
import { podNetworkChecks } from '../../runner/rolling/gate/pod-network.js';
import { gateVerdict } from '../../runner/rolling/gate/verdict.js';
import { ENDPOINT, NETWORK, podAddresses } from '../../playbooks/onboard/node-values.js';

const host: HostView = { name: 'node009', vars: {}, groups: ['all', 'windows'], os: 'windows' };
const target: GateTarget = { host, node: 'node009', podCidr: '10.160.11.0/24' };
const checks = podNetworkChecks({
  network: NETWORK,
  endpoint: ENDPOINT,
  addresses: podAddresses,
  adapter: () => 'eth1',
  services: ['kubelet', 'kubeproxy'],
  vipGroup: 'tor',
});

const network = {
  id: 'N1',
  name: 'l2bridge',
  type: 'L2Bridge',
  addressPrefix: '10.160.11.0/24',
  gateway: '10.160.11.1',
  adapterName: 'eth1',
};
const endpoint = {
  id: 'E1',
  network: 'l2bridge',
  ipAddress: '10.160.11.2',
  gateway: '0.0.0.0',
  compartmentId: 1,
  forwarding: true,
};
const service = (name: string, state: string) => ({
  name,
  type: '10  WIN32_OWN_PROCESS',
  state,
  stateName: state.toUpperCase(),
  controls: [],
  win32ExitCode: state === 'Running' ? 0 : 1067,
  serviceExitCode: 0,
  pid: state === 'Running' ? 4242 : 0,
});
const on = (actual: unknown): Seen<unknown>[] => [{ host: 'node009', ok: true, actual }];
const tors = (holder: string | string[] | null): Seen<unknown>[] =>
  ['tor1', 'tor2', 'tor3'].map((h) => ({
    host: h,
    ok: true,
    actual: ([] as string[]).concat(holder ?? []).includes(h) ? ['198.18.0.11', '10.160.11.1'] : ['198.18.0.12'],
  }));

interface Node {
  network?: Seen<unknown>[];
  endpoint?: Seen<unknown>[];
  kubelet?: Seen<unknown>[];
  kubeproxy?: Seen<unknown>[];
  vip?: Seen<unknown>[];
}
const healthy: Required<Node> = {
  network: on(network),
  endpoint: on(endpoint),
  kubelet: on(service('kubelet', 'Running')),
  kubeproxy: on(service('kubeproxy', 'Running')),
  vip: tors('tor2'),
};

function verdict(n: Node, t: GateTarget = target) {
  const seen = { ...healthy, ...n };
  const order = [seen.network, seen.endpoint, seen.kubelet, seen.kubeproxy, seen.vip];
  const v = gateVerdict(
    'pod-network',
    checks.map((c, i) => c.judge(t, order[i]!)),
  );
  return [v.pass, v.message];
}

test('the gate passes a healthy node and says what it saw, and names everything wrong otherwise', (t) => {
  const rows: [string, Node, [boolean, string]][] = [
    [
      'healthy',
      {},
      [
        true,
        'pod-network gate passed: HNS network l2bridge on 10.160.11.0/24; host endpoint cbr0 10.160.11.2; service kubelet Running; service kubeproxy Running; gateway VIP 10.160.11.1 on tor2',
      ],
    ],
    [
      'HNS network gone after the reboot (its endpoint with it)',
      { network: on(null), endpoint: on(null) },
      [false, 'pod-network gate: HNS network l2bridge missing; HNS host endpoint cbr0 missing'],
    ],
    [
      'kube-proxy stopped',
      { kubeproxy: on(service('kubeproxy', 'Stopped')) },
      [false, 'pod-network gate: service kubeproxy Stopped'],
    ],
    [
      'network on another prefix, endpoint detached',
      {
        network: on({ ...network, addressPrefix: '10.160.12.0/24', gateway: '10.160.12.1' }),
        endpoint: on({ ...endpoint, compartmentId: null }),
      },
      [
        false,
        'pod-network gate: HNS network l2bridge differs: addressPrefix 10.160.12.0/24 (want 10.160.11.0/24), gateway 10.160.12.1 (want 10.160.11.1); HNS host endpoint cbr0 differs: compartmentId none (want 1)',
      ],
    ],
    [
      'kubelet service missing, VIP on no tor host',
      { kubelet: on(null), vip: tors(null) },
      [
        false,
        'pod-network gate: service kubelet missing; gateway VIP 10.160.11.1 held by no host of group tor (tor1, tor2, tor3)',
      ],
    ],
    [
      'VIP on two tor hosts at once',
      { vip: tors(['tor1', 'tor3']) },
      [false, 'pod-network gate: gateway VIP 10.160.11.1 held by tor1 and tor3 at once (a split VRRP group)'],
    ],
    [
      'a tor host does not answer, another holds the VIP',
      { vip: [...tors('tor2').slice(0, 2), { host: 'tor3', ok: false, error: 'connect ECONNREFUSED' }] },
      [
        true,
        'pod-network gate passed: HNS network l2bridge on 10.160.11.0/24; host endpoint cbr0 10.160.11.2; service kubelet Running; service kubeproxy Running; gateway VIP 10.160.11.1 on tor2 (tor3 did not answer)',
      ],
    ],
    [
      'no tor host in the inventory: the VIP is not looked at',
      { vip: [] },
      [
        true,
        'pod-network gate passed: HNS network l2bridge on 10.160.11.0/24; host endpoint cbr0 10.160.11.2; service kubelet Running; service kubeproxy Running; gateway VIP 10.160.11.1 not checked: no host of group tor in the inventory',
      ],
    ],
    [
      'the node did not answer its probes',
      { kubelet: [{ host: 'node009', ok: false, error: 'node009 unreachable: connection refused' }] },
      [false, 'pod-network gate: service kubelet: cannot check: node009: node009 unreachable: connection refused'],
    ],
  ];
  t.deepEqual(
    rows.map(([name, n]) => [name, verdict(n)]),
    rows.map(([name, , want]) => [name, want]),
  );
});

test("a node without a pod CIDR cannot be checked: each check says so, from its probe's construction", (t) => {
  const none: GateTarget = { ...target, podCidr: null };
  t.deepEqual(
    checks.map((c) => {
      try {
        c.probe(none);
        return [c.name, 'probed'];
      } catch (e) {
        return [c.name, (e as Error).message];
      }
    }),
    [
      ['HNS network', 'node node009 has no pod CIDR in the cluster (spec.podCIDR)'],
      ['HNS host endpoint', 'node node009 has no pod CIDR in the cluster (spec.podCIDR)'],
      ['service kubelet', 'probed'],
      ['service kubeproxy', 'probed'],
      ['gateway VIP', 'node node009 has no pod CIDR in the cluster (spec.podCIDR)'],
    ],
  );
});

test('ip -o -4 addr show: the addresses, VIP labels included', (t) => {
  const out = [
    '1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever',
    '2: eth1    inet 198.18.0.11/24 brd 198.18.0.255 scope global eth1\\       valid_lft forever preferred_lft forever',
    '2: eth1    inet 198.19.9.1/24 scope global eth1:1\\       valid_lft forever preferred_lft forever',
  ].join('\n');
  t.deepEqual(parseAddresses(out), ['127.0.0.1', '198.18.0.11', '198.19.9.1']);
});
