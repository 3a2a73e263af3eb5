// The tor-gateway playbook's plan without any host: the real playbook compiled against inventories
// written here, and its steps built as `play` builds them before connecting (prebuildSteps). The
// keepalived config each tor host gets, computed from the whole inventory, and the bad input refused
// with a message naming the problem (the CLI turns these InputErrors into exit 65).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { InputError } from '../../runner/core/errors.js';
import type { AnyStep } from '../../runner/core/step.js';
import { loadInventory } from '../../runner/inventory/load.js';
import type { Inventory } from '../../runner/inventory/model.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { ContextFactory, OutputStore } from '../../runner/run/context.js';
import { prebuildSteps } from '../../runner/run/run-graph.js';
import { buildStep } from '../../runner/run/step-lifecycle.js';
import type { KeepalivedConfDesired } from '../../tasks/linux/index.js';
import torGateway from '../../playbooks/tor-gateway.js';

process.env.PLAY_T_VRRP_PASS = 'lab-pass';
delete process.env.PLAY_T_VRRP_UNSET;

type Vars = Record<string, unknown>;

const tmpDirs: string[] = [];
test.after.always('remove the inventories', () => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

interface Spec {
  tor?: Record<string, Vars>;
  torVars?: Vars;
  windows?: Record<string, Vars> | null;
  other?: Record<string, Vars>;
  control?: Record<string, Vars>;
}

/** An inventory file like the lab's: three tor hosts, two Windows nodes with pod CIDRs. */
function inventoryFile(spec: Spec = {}): string {
  const tor = spec.tor ?? {
    tor1: { ansible_host: '198.18.0.11' },
    tor2: { ansible_host: '198.18.0.12' },
    tor3: { ansible_host: '198.18.0.13' },
  };
  const windows =
    spec.windows === undefined
      ? {
          win1: { ansible_host: '198.18.1.1', pod_cidr: '198.19.11.0/24' },
          win2: { ansible_host: '198.18.1.2', pod_cidr: '198.19.12.0/24' },
        }
      : spec.windows;
  const children: Vars = {
    tor: {
      vars: {
        vrrp_interface: 'eth1',
        vrrp_virtual_router_id: 188,
        vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_VRRP_PASS') }}",
        ...spec.torVars,
      },
      hosts: tor,
    },
  };
  if (windows) children.windows = { hosts: windows };
  if (spec.other) children.linux = { hosts: spec.other };
  if (spec.control) children.control = { hosts: spec.control };
  const dir = mkdtempSync(join(tmpdir(), 'play-tg-plan-'));
  tmpDirs.push(dir);
  const path = join(dir, 'inventory.yaml');
  writeFileSync(path, YAML.stringify({ all: { vars: { ansible_user: 'root' }, children } }));
  return path;
}

/** Every step play would build, by node id (`config@tor1`), as the CLI does before connecting. */
function build(spec: Spec = {}, options: { limit?: string; extraVars?: Vars } = {}): Map<string, AnyStep> {
  const inventory = loadInventory(inventoryFile(spec));
  const graph = compileGraph(torGateway, inventory, { limit: options.limit });
  return prebuildSteps(graph, inventory, options.extraVars ?? {});
}

const conf = (steps: Map<string, AnyStep>, host: string) =>
  steps.get(`config@${host}`)!.desired as KeepalivedConfDesired;

function refused(t: any, spec: Spec, pattern: RegExp, options: { limit?: string; extraVars?: Vars } = {}): string {
  const e = t.throws(() => build(spec, options), { instanceOf: InputError });
  t.regex(e.message, pattern);
  return e.message as string;
}

test('each tor host: priority by position, the others as peers, its own router_id; VIPs of every Windows node', (t) => {
  const steps = build();
  const want = [
    ['tor1', 150, '198.18.0.11', ['198.18.0.12', '198.18.0.13']],
    ['tor2', 140, '198.18.0.12', ['198.18.0.11', '198.18.0.13']],
    ['tor3', 130, '198.18.0.13', ['198.18.0.11', '198.18.0.12']],
  ] as const;
  for (const [host, priority, src, peers] of want) {
    const { config } = conf(steps, host);
    t.is(config.routerId, host);
    t.like(config.instance, {
      state: 'BACKUP',
      nopreempt: true,
      interface: 'eth1',
      virtualRouterId: 188,
      advertInt: 1,
      priority,
      unicastSrcIp: src,
      name: 'VI_K8S_WIN_GATE_ETH1',
    });
    t.deepEqual(config.instance.unicastPeers, peers);
    t.deepEqual(config.vips, [
      { address: '198.19.11.1', prefix: 24, dev: 'eth1', label: 'eth1:1' },
      { address: '198.19.12.1', prefix: 24, dev: 'eth1', label: 'eth1:2' },
    ]);
  }
  // The field note's layout, one VIP line per node.
  t.regex(
    conf(steps, 'tor2').masked,
    /priority 140\n {4}nopreempt\n {4}advert_int 1\n[\s\S]*unicast_src_ip 198\.18\.0\.12\n {4}unicast_peer \{\n {8}198\.18\.0\.11\n {8}198\.18\.0\.13\n {4}\}[\s\S]*198\.19\.12\.1\/24 dev eth1 label eth1:2\n/,
  );
  t.deepEqual(conf(steps, 'tor1').warnings, []);
  t.deepEqual(
    [...steps.keys()].filter((k) => k.endsWith('@tor1')),
    ['forwarding@tor1', 'package@tor1', 'config@tor1', 'restart@tor1', 'service@tor1'],
  );
});

test('vars win over the defaults: priority, router_id, VRRP address, interface, instance; pod_gateway; labels follow the VIP order', (t) => {
  const steps = build({
    tor: {
      tor1: { ansible_host: '198.18.0.11', vrrp_priority: 120, vrrp_router_id: 'LVS_WIN_GW_1' },
      tor2: { ansible_host: '172.16.126.203', vrrp_unicast_src_ip: '198.18.0.12' },
      tor3: { ansible_host: '198.18.0.13' },
    },
    torVars: { vrrp_interface: 'eth2', vrrp_instance_name: 'VI_MYLAN', vrrp_advert_int: 2, vrrp_virtual_router_id: 51 },
    windows: {
      node010: { pod_cidr: '198.19.12.0/24' },
      node009: { pod_cidr: '198.19.11.0/24', pod_gateway: '198.19.11.254' },
      node011: { pod_cidr: null },
    },
    other: { linux1: { pod_cidr: '198.19.13.0/24' } },
  });
  const tor1 = conf(steps, 'tor1').config;
  t.is(tor1.routerId, 'LVS_WIN_GW_1');
  t.like(tor1.instance, { priority: 120, interface: 'eth2', name: 'VI_MYLAN', advertInt: 2, virtualRouterId: 51 });
  t.deepEqual(tor1.instance.unicastPeers, ['198.18.0.12', '198.18.0.13'], 'tor2 by its vrrp_unicast_src_ip');
  t.is(conf(steps, 'tor2').config.instance.priority, 140, "positions count, not the other hosts' priorities");
  t.deepEqual(
    tor1.vips,
    [
      { address: '198.19.11.254', prefix: 24, dev: 'eth2', label: 'eth2:1' },
      { address: '198.19.12.1', prefix: 24, dev: 'eth2', label: 'eth2:2' },
    ],
    'node011 has no pod CIDR yet; linux1 is no Windows node',
  );
});

test('a run limited to one tor host builds the same config for it: nothing is computed from the limit', (t) => {
  const all = build();
  const one = build({}, { limit: 'tor2' });
  t.deepEqual(
    [...one.keys()].filter((k) => k.startsWith('config@')),
    ['config@tor2'],
  );
  t.is(conf(one, 'tor2').sha256, conf(all, 'tor2').sha256);
});

test('refused before any host: a VIP outside its pod CIDR, the same or overlapping pod CIDRs, no Windows node', (t) => {
  refused(
    t,
    { windows: { win1: { pod_cidr: '198.19.11.0/24', pod_gateway: '198.19.12.1' } } },
    /task 'config' for host tor1: pod gateways \(pod_cidr, pod_gateway of the windows hosts\): node win1: VIP 198\.19\.12\.1 is outside the node's pod CIDR 198\.19\.11\.0\/24/,
  );
  refused(
    t,
    { windows: { win1: { pod_cidr: '198.19.11.0/24' }, win2: { pod_cidr: '198.19.11.0/24' } } },
    /nodes win1 and win2 have the same pod CIDR 198\.19\.11\.0\/24/,
  );
  refused(
    t,
    { windows: { win1: { pod_cidr: '198.19.0.0/16' }, win2: { pod_cidr: '198.19.11.0/24' } } },
    /nodes win1 and win2 have overlapping pod CIDRs/,
  );
  refused(t, { windows: { win1: { pod_cidr: '198.19.11.7/24' } } }, /pod CIDR 198\.19\.11\.7\/24 has host bits set/);
  refused(t, { windows: null }, /no pod gateway to serve: no host of group windows has a pod_cidr var/);
});

test('refused before any host: virtual_router_id out of range (inventory or -e), a missing, plain or differing secret', (t) => {
  refused(
    t,
    { torVars: { vrrp_virtual_router_id: 300 } },
    /task 'config' for host tor1: vrrp_virtual_router_id of tor1 \(keepalived's virtual_router_id\) must be an integer 1-255, got 300/,
  );
  refused(t, {}, /vrrp_virtual_router_id of tor1 .* got "0"/, { extraVars: { vrrp_virtual_router_id: '0' } });
  t.is(
    conf(build({}, { extraVars: { vrrp_virtual_router_id: '51' } }), 'tor3').config.instance.virtualRouterId,
    51,
    '-e gives a string',
  );
  refused(
    t,
    { torVars: { vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_VRRP_UNSET') }}" } },
    /host tor1: vrrp_auth_pass needs environment variable PLAY_T_VRRP_UNSET, which is not set/,
  );
  refused(t, {}, /vrrp_auth_pass of tor1 must come from the environment/, { extraVars: { vrrp_auth_pass: 'plain' } });
  refused(t, { torVars: { vrrp_auth_pass: null } }, /vrrp_auth_pass of tor1 is not set/);
  process.env.PLAY_T_VRRP_OTHER = 'other-pass';
  refused(
    t,
    {
      tor: {
        tor1: { ansible_host: '198.18.0.11' },
        tor2: { ansible_host: '198.18.0.12', vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_VRRP_OTHER') }}" },
      },
    },
    /tor hosts tor1 and tor2 have different vrrp_auth_pass values/,
  );
});

test('refused before any host: peers that disagree or collide, a lone tor host, an invalid value', (t) => {
  const tor = (extra: Vars) => ({
    tor1: { ansible_host: '198.18.0.11' },
    tor2: { ansible_host: '198.18.0.12', ...extra },
  });
  refused(
    t,
    { tor: tor({ vrrp_virtual_router_id: 189 }) },
    /tor hosts tor1 and tor2 have different vrrp_virtual_router_id \(188, 189\)/,
  );
  refused(t, { tor: tor({ vrrp_priority: 150 }) }, /tor hosts tor1 and tor2 have the same priority .* 150/);
  refused(t, { tor: tor({ vrrp_router_id: 'tor1' }) }, /tor hosts tor1 and tor2 have the same router_id .* tor1/);
  refused(
    t,
    { tor: tor({ ansible_host: '198.18.0.11' }) },
    /tor hosts tor1 and tor2 have the same VRRP address .* 198\.18\.0\.11/,
  );
  refused(
    t,
    { tor: tor({ ansible_host: 'tor2.example' }) },
    /ansible_host of tor2 must be its IPv4 address on the VRRP interface .* set vrrp_unicast_src_ip/,
  );
  refused(
    t,
    { tor: { tor1: { ansible_host: '198.18.0.11' } } },
    /group tor has only tor1: VRRP needs at least two tor hosts/,
  );
  refused(t, { torVars: { vrrp_state: 'master' } }, /vrrp_state of tor1 must be BACKUP or MASTER/);
  // What the keepalived model refuses is refused the same way, naming its field.
  refused(
    t,
    { torVars: { vrrp_state: 'MASTER' } },
    /linux\.keepalivedConf: option 'config\.instance\.nopreempt' needs state BACKUP/,
  );
  refused(
    t,
    { torVars: { vrrp_interface: 'eth 1' } },
    /option 'config\.instance\.interface' \(interface\) must be a Linux interface name/,
  );
});

test('an auth_pass longer than 8 characters is accepted, with a warning in the plan', (t) => {
  process.env.PLAY_T_VRRP_LONG = 'abcdefgh1234';
  const steps = build({ torVars: { vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_VRRP_LONG') }}" } });
  const d = conf(steps, 'tor1');
  t.regex(d.warnings.join('\n'), /is 12 characters; keepalived uses only the first 8/);
  t.true(d.content.reveal().includes('auth_pass abcdefgh\n'));
  t.false(d.masked.includes('abcdefgh'));
});

/** The config step of `host` as the runner builds it once the cluster read (`kubectl get nodes -o json`) answered. */
function configAfterClusterRead(inventory: Inventory, host: string, getNodesJson: string): KeepalivedConfDesired {
  const graph = compileGraph(torGateway, inventory);
  const outputs = new OutputStore();
  for (const n of graph.nodes.filter((x) => x.task === 'clusterNodes')) outputs.set(n, { value: getNodesJson });
  const node = graph.nodes.find((n) => n.id === `config@${host}`)!;
  return buildStep(node, { contexts: new ContextFactory(inventory, outputs, {}), steps: new Map() })
    .desired as KeepalivedConfDesired;
}

test("the example inventory of the field notes plans the field note's keepalived config", (t) => {
  process.env.VRRP_AUTH_PASS = 'lvs-pass';
  const inventory = loadInventory(new URL('../../inventory/example.yaml', import.meta.url).pathname);
  // node009's pod CIDR, assigned by the API server, read on a master (docs/field-notes.md).
  const cluster = JSON.stringify({ items: [{ metadata: { name: 'node009' }, spec: { podCIDR: '10.160.11.0/24' } }] });
  const { config, masked } = configAfterClusterRead(inventory, 'tor1', cluster);
  t.is(config.routerId, 'LVS_WIN_GW_1');
  t.like(config.instance, {
    name: 'VI_MYLAN_K8S_WIN_GATE_ETH1',
    virtualRouterId: 188,
    priority: 150,
    unicastSrcIp: '100.100.126.202',
  });
  t.deepEqual(config.instance.unicastPeers, ['100.100.126.203', '100.100.126.204']);
  t.regex(masked, /10\.160\.11\.1\/24 dev eth1 label eth1:1/);
});

test('with a control host, the pod CIDRs the cluster allocated are read there (also under --limit) and win over pod_cidr vars', (t) => {
  const control = { control1: { ansible_host: '198.18.0.5', kubectl: '/opt/play-lab/bin/kubectl' } };
  const inventory = loadInventory(inventoryFile({ control }));
  const graph = compileGraph(torGateway, inventory, { limit: 'tor1' });
  t.deepEqual(
    graph.nodes.map((n) => n.id),
    ['forwarding@tor1', 'package@tor1', 'clusterNodes@tor1>control1', 'config@tor1', 'restart@tor1', 'service@tor1'],
  );
  // The config waits for the cluster's answer, but the VRRP vars are still checked before any host.
  t.false(prebuildSteps(graph, inventory).has('config@tor1'));
  refused(
    t,
    { control, torVars: { vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_VRRP_UNSET') }}" } },
    /host tor1: vrrp_auth_pass needs environment variable PLAY_T_VRRP_UNSET/,
  );

  // win1 is known to the cluster with another CIDR than its var; win2 only by its var; master1 is no Windows node.
  const cluster = JSON.stringify({
    items: [
      { metadata: { name: 'win1' }, spec: { podCIDR: '198.19.21.0/24' } },
      { metadata: { name: 'master1' }, spec: { podCIDR: '198.19.0.0/24' } },
    ],
  });
  t.deepEqual(
    configAfterClusterRead(inventory, 'tor1', cluster).config.vips.map((v) => v.address),
    ['198.19.12.1', '198.19.21.1'],
  );
});
