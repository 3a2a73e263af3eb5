// What the ToR gateway is made of, shared by the playbooks that configure it (tor-gateway, and
// onboard-windows, which writes a node's VIP on the tor hosts): the groups, the defaults, the
// keepalived.conf a tor host must have, the checks of its inventory vars and its keepalived service.
//
// The Linux ToR gateway (docs/domain.md#the-tor-gateway, docs/field-notes.md#a-upstream-tor-gateway), on the `tor` group:
// forwarding on, keepalived installed, configured and running, restarted when its config changed.
// keepalived holds one VRRP VIP per Windows node: the pod gateway of every host of the `windows`
// group that has a `pod_cidr` var (its first address, or the node's `pod_gateway`), with the pod
// CIDR's prefix, on `dev <vrrp_interface> label <vrrp_interface>:<n>`.
//
// Every value comes from inventory vars (README "tor-gateway" lists them with their defaults). A node's
// pod CIDR is its `pod_cidr` var or, when the inventory has a control host (group `control`, where
// kubectl runs), the one the cluster allocated to it, which wins: read on the control host in every
// run, so the VIP set is the one onboard-windows writes. The
// VIP set, the peers and the priorities are computed from the whole inventory, never from the hosts
// a run is limited to: a run for some hosts writes the same file a run for all would, so it never
// drops another node's VIP. The runner runs each host's steps one at a time, so the steps of one run
// never race on a tor host's keepalived.conf, also when a playbook delegates them per Windows node
// (torGatewayConfig reads the host a step runs on, ctx.runsOn).
//
// Input that would make a wrong or split VRRP group is refused while the steps are built, before
// any host is touched (exit 65, naming the task, the host and the var): a VIP outside its node's
// pod CIDR, overlapping pod CIDRs, an out-of-range value, a missing or plain-text auth secret, tor
// hosts that disagree on an instance-wide value, two with the same priority, router_id or address.
import {
  boolVar,
  type HostView,
  hostVar,
  InputError,
  intVar,
  isSecret,
  parseIPv4,
  type Secret,
  showValue,
  stringVar,
  type TaskContext,
} from '../../runner/index.js';
import {
  keepalivedPidfile,
  service,
  validatePodCidrs,
  type KeepalivedConfig,
  type KeepalivedInstance,
  type KeepalivedVip,
} from '../../tasks/linux/index.js';
import { WINDOWS_GROUP } from './cluster.js';

/** The ToR hosts: the VRRP peers. */
export const TOR_GROUP = 'tor';
/** The hosts whose `pod_cidr` gets a gateway VIP. */
export const NODE_GROUP = WINDOWS_GROUP;

/** Defaults, as in the field note where it has one (docs/field-notes.md#a-upstream-tor-gateway). */
export const TOR_DEFAULTS = Object.freeze({
  vrrp_interface: 'eth1',
  vrrp_virtual_router_id: 188,
  vrrp_state: 'BACKUP' as const,
  vrrp_nopreempt: true,
  vrrp_advert_int: 1,
  /** Priority of the first host of the tor group; each next one gets PRIORITY_STEP less (150, 140, 130). */
  priority_first: 150,
  priority_step: 10,
  keepalived_run_dir: '/etc/keepalived/run',
  sysctl_file: '/etc/sysctl.d/90-tor-gateway.conf',
});

/** Where keepalived reads its config; the service's -f and the config step's path. */
export const KEEPALIVED_CONF = '/etc/keepalived/keepalived.conf';

/** The host's address on the VRRP network: vrrp_unicast_src_ip, else ansible_host. */
function vrrpAddress(h: HostView): string {
  const own = hostVar(h, 'vrrp_unicast_src_ip');
  const v = own ?? hostVar(h, 'ansible_host');
  const name = own !== undefined ? 'vrrp_unicast_src_ip' : 'ansible_host';
  if (typeof v !== 'string' || parseIPv4(v) === null) {
    throw new InputError(
      `${name} of ${h.name} must be its IPv4 address on the VRRP interface (keepalived's unicast_src_ip; set vrrp_unicast_src_ip when ansible_host is not that address), got ${showValue(v)}`,
    );
  }
  return v;
}

function authPass(h: HostView): Secret {
  // Reading an env-backed var resolves it: an unset environment variable throws here, naming it.
  const v = hostVar(h, 'vrrp_auth_pass');
  if (v === undefined) {
    throw new InputError(
      `vrrp_auth_pass of ${h.name} is not set: the VRRP password must come from the environment, e.g. vrrp_auth_pass: "{{ lookup('env', 'VRRP_AUTH_PASS') }}"`,
    );
  }
  if (!isSecret(v)) {
    throw new InputError(
      `vrrp_auth_pass of ${h.name} must come from the environment ("{{ lookup('env', 'VRRP_AUTH_PASS') }}"), not be written in the inventory or given with -e`,
    );
  }
  return v;
}

/** vrrp_priority, else by position in the tor group: 150, 140, 130, ... */
function priority(h: HostView, position: number): number {
  if (hostVar(h, 'vrrp_priority') !== undefined)
    return intVar(h, 'vrrp_priority', undefined, 1, 254, "keepalived's priority");
  const p = TOR_DEFAULTS.priority_first - TOR_DEFAULTS.priority_step * position;
  if (p < 1)
    throw new InputError(
      `${h.name} is host ${position + 1} of group ${TOR_GROUP}, too far down for a default priority (${TOR_DEFAULTS.priority_first} - ${TOR_DEFAULTS.priority_step} per host): set vrrp_priority (1-254) on it`,
    );
  return p;
}

interface Member {
  readonly host: HostView;
  readonly address: string;
  readonly priority: number;
  readonly routerId: string;
}

/** Every tor host with its address, priority and router_id; refuses duplicates among them. */
function vrrpMembers(ctx: Pick<TaskContext, 'group'>): Member[] {
  const hosts = ctx.group(TOR_GROUP);
  const members = hosts.map(
    (host, i): Member => ({
      host,
      address: vrrpAddress(host),
      priority: priority(host, i),
      routerId: stringVar(host, 'vrrp_router_id', host.name),
    }),
  );
  const unique = (what: string, key: (m: Member) => string | number) => {
    const seen = new Map<string | number, string>();
    for (const m of members) {
      const k = key(m);
      const other = seen.get(k);
      if (other !== undefined)
        throw new InputError(
          `tor hosts ${other} and ${m.host.name} have the same ${what} ${k}: it must differ per host`,
        );
      seen.set(k, m.host.name);
    }
  };
  unique('VRRP address (vrrp_unicast_src_ip or ansible_host)', (m) => m.address);
  unique('priority (vrrp_priority, default from the position in the tor group)', (m) => m.priority);
  unique('router_id (vrrp_router_id, default the host name)', (m) => m.routerId);
  return members;
}

/** The pod gateway VIPs of every Windows node of the inventory, sorted by address, labelled 1..n. */
export function podGatewayVips(
  inventory: readonly HostView[],
  dev: string,
  podCidrs: Readonly<Record<string, string>> = {},
): KeepalivedVip[] {
  // podCidrs: pod CIDRs known otherwise (e.g. read from the cluster in this run), by node name; they win over pod_cidr vars.
  const cidrOf = (h: HostView) => (Object.hasOwn(podCidrs, h.name) ? podCidrs[h.name] : hostVar(h, 'pod_cidr'));
  const nodes = inventory
    .filter((h) => h.groups.includes(NODE_GROUP) && cidrOf(h) !== undefined)
    .map((h) => ({
      name: h.name,
      podCidr: cidrOf(h) as string,
      ...(hostVar(h, 'pod_gateway') !== undefined ? { vip: hostVar(h, 'pod_gateway') as string } : {}),
    }));
  if (nodes.length === 0) {
    throw new InputError(
      `no pod gateway to serve: no host of group ${NODE_GROUP} has a pod_cidr var (give each Windows node its pod CIDR, e.g. pod_cidr: 10.160.11.0/24)`,
    );
  }
  let checked: ReturnType<typeof validatePodCidrs>;
  try {
    checked = validatePodCidrs(nodes);
  } catch (e) {
    if (e instanceof InputError)
      throw new InputError(`pod gateways (pod_cidr, pod_gateway of the ${NODE_GROUP} hosts): ${e.message}`);
    throw e;
  }
  return [...checked]
    .sort((a, b) => parseIPv4(a.vip.address)! - parseIPv4(b.vip.address)!)
    .map((c, i) => ({ address: c.vip.address, prefix: c.vip.prefix, dev, label: `${dev}:${i + 1}` }));
}

/**
 * The keepalived config of the host the step runs on (ctx.runsOn, a tor host), computed from the
 * whole inventory (and podCidrs: node name -> pod CIDR known otherwise, winning over pod_cidr vars).
 * Pure; throws InputError on bad input.
 */
export function torGatewayConfig(
  ctx: Pick<TaskContext, 'runsOn' | 'inventory' | 'group'>,
  podCidrs: Readonly<Record<string, string>> = {},
): KeepalivedConfig {
  const me = ctx.runsOn;
  const members = vrrpMembers(ctx);
  const self = members.find((m) => m.host.name === me.name);
  if (!self) throw new InputError(`host ${me.name} is not in group ${TOR_GROUP}: only tor hosts hold the VIPs`);
  if (members.length < 2)
    throw new InputError(`group ${TOR_GROUP} has only ${me.name}: VRRP needs at least two tor hosts (unicast peers)`);

  // Instance-wide values must agree on every peer, or the VRRP group splits (two masters).
  const vrid = (h: HostView) =>
    intVar(h, 'vrrp_virtual_router_id', TOR_DEFAULTS.vrrp_virtual_router_id, 1, 255, "keepalived's virtual_router_id");
  const advert = (h: HostView) =>
    intVar(h, 'vrrp_advert_int', TOR_DEFAULTS.vrrp_advert_int, 1, 255, "keepalived's advert_int");
  const [myVrid, myAdvert, pass] = [vrid(me), advert(me), authPass(me)];
  for (const { host } of members) {
    if (host === me) continue;
    if (vrid(host) !== myVrid)
      throw new InputError(
        `tor hosts ${me.name} and ${host.name} have different vrrp_virtual_router_id (${myVrid}, ${vrid(host)}): VRRP peers must share it`,
      );
    if (advert(host) !== myAdvert)
      throw new InputError(
        `tor hosts ${me.name} and ${host.name} have different vrrp_advert_int (${myAdvert}, ${advert(host)}): VRRP peers must share it`,
      );
    if (authPass(host).reveal() !== pass.reveal())
      throw new InputError(
        `tor hosts ${me.name} and ${host.name} have different vrrp_auth_pass values: VRRP peers must share the password`,
      );
  }

  const iface = stringVar(me, 'vrrp_interface', TOR_DEFAULTS.vrrp_interface);
  const state = stringVar(me, 'vrrp_state', TOR_DEFAULTS.vrrp_state);
  if (state !== 'BACKUP' && state !== 'MASTER')
    throw new InputError(`vrrp_state of ${me.name} must be BACKUP or MASTER, got ${showValue(state)}`);
  const instance: KeepalivedInstance = {
    name: stringVar(me, 'vrrp_instance_name', `VI_K8S_WIN_GATE_${iface.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`),
    state,
    interface: iface,
    virtualRouterId: myVrid,
    priority: self.priority,
    nopreempt: boolVar(me, 'vrrp_nopreempt', TOR_DEFAULTS.vrrp_nopreempt),
    advertInt: myAdvert,
    authPass: pass,
    unicastSrcIp: self.address,
    unicastPeers: members.filter((m) => m !== self).map((m) => m.address),
  };
  return { routerId: self.routerId, instance, vips: podGatewayVips(ctx.inventory, iface, podCidrs) };
}

/**
 * The tor hosts' VRRP vars (password, router ids, priorities, ...) checked before any host is touched,
 * also where the VIPs can only be computed once the cluster has been read: everything
 * torGatewayConfig checks except the VIP set.
 */
export function checkTorVars(ctx: Pick<TaskContext, 'runsOn' | 'inventory' | 'group'>): void {
  try {
    torGatewayConfig(ctx);
  } catch (e) {
    if (e instanceof InputError && /^(no pod gateway to serve|pod gateways \()/.test(e.message)) return;
    throw e;
  }
}

/** keepalived running (or restarted), by systemd where it runs, else by pidfiles in keepalived_run_dir. */
export function keepalivedService(h: HostView, restart: boolean) {
  const runDir = stringVar(h, 'keepalived_run_dir', TOR_DEFAULTS.keepalived_run_dir);
  return service({
    name: 'keepalived',
    state: 'running',
    enabled: true,
    restart,
    manager: 'auto',
    pidfile: keepalivedPidfile({ runDir, conf: KEEPALIVED_CONF }),
  });
}
