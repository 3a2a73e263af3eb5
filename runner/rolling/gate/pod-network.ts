// The pod-network gate of a Windows node (docs/rolling.md#pod-network-gate): after its patch and reboot
// the node is Ready, yet its pod network may be gone (Windows-Containers#516: the HNS network missing
// after a reboot; acs-engine#4001: kube-proxy not running). Before it is uncordoned, on the pod CIDR
// the cluster gives the node:
// - its L2Bridge HNS network and host endpoint are as onboard-windows made them (the steps' own
//   probes and diffs: tasks/windows/hns-network.ts, steps/hns-host-endpoint/);
// - its services (kubelet, kube-proxy) run (the service step's probe, sc.exe queryex);
// - its gateway VIP is held by one ToR host (gateway-vip.ts).
// The values (names, addresses, the adapter) are the onboarding's, given by the playbook that declares
// the gate, so the gate checks the very network onboard-windows builds.
import type { HostView } from '../../playbook/define.js';
import { hnsHostEndpoint } from '../../../tasks/windows/steps/hns-host-endpoint/index.js';
import { hnsNetwork } from '../../../tasks/windows/hns-network.js';
import { probeCall } from '../../../tasks/windows/remote/calls.js';
import { GET_SERVICE } from '../../../tasks/windows/remote/ps-services.js';
import { parseScQueryex, type ScQueryex } from '../../../tasks/windows/parse/sc-output.js';
import { gatewayVipCheck } from './gateway-vip.js';
import type { CheckResult, GateCheck, GateTarget, RollingGate, Seen } from './model.js';
import { probeFailure } from './verdict.js';
import { stepCheck } from './step-check.js';

export interface PodNetworkGateOptions {
  /** The L2Bridge network (onboard-windows: l2bridge) and its host endpoint (cbr0). */
  readonly network: string;
  readonly endpoint: string;
  /** The pod gateway (the ToR VIP) and the host endpoint's address in the node's pod CIDR. */
  addresses(host: HostView, podCidr: string): { gateway: string; endpoint: string };
  /** The physical adapter the network is bridged to. */
  adapter(host: HostView): string;
  /** Windows services that must be Running (sc.exe names: kubelet, kubeproxy). */
  readonly services: readonly string[];
  /** The group whose hosts hold the gateway VIPs (tor); a group without hosts is not checked. */
  readonly vipGroup: string;
  /** Seconds a Ready node may take to pass (default 60). */
  readonly withinSec?: number;
}

function podCidrOf(t: GateTarget): string {
  if (t.podCidr === null) throw new Error(`node ${t.node} has no pod CIDR in the cluster (spec.podCIDR)`);
  return t.podCidr;
}

/** Pure: a service's verdict from sc.exe queryex (null: no such service). */
export function judgeService(check: string, name: string, seen: readonly Seen<ScQueryex>[]): CheckResult {
  const failed = probeFailure(check, seen);
  if (failed) return failed;
  const status = seen[0]?.ok ? seen[0].actual : null;
  if (status === null) return { check, ok: false, text: `service ${name} missing` };
  return { check, ok: status.state === 'Running', text: `service ${name} ${status.state}` };
}

function serviceCheck(name: string): GateCheck<ScQueryex> {
  const check = `service ${name}`;
  return {
    name: check,
    on: 'node',
    probe: () => probeCall(GET_SERVICE, { name }, (v) => (v === null ? null : parseScQueryex(v.queryex))),
    judge: (_t, seen) => judgeService(check, name, seen),
  };
}

export function podNetworkChecks(o: PodNetworkGateOptions): GateCheck<any>[] {
  const network = (t: GateTarget) => {
    const podCidr = podCidrOf(t);
    return hnsNetwork({
      name: o.network,
      type: 'L2Bridge',
      addressPrefix: podCidr,
      gateway: o.addresses(t.host, podCidr).gateway,
      adapterName: o.adapter(t.host),
    });
  };
  const endpoint = (t: GateTarget) => {
    const podCidr = podCidrOf(t);
    return hnsHostEndpoint({
      name: o.endpoint,
      network: o.network,
      addressPrefix: podCidr,
      ipAddress: o.addresses(t.host, podCidr).endpoint,
    });
  };
  return [
    stepCheck('HNS network', network, (t) => `HNS network ${o.network} on ${t.podCidr}`),
    stepCheck('HNS host endpoint', endpoint, (_t, s) => `host endpoint ${o.endpoint} ${s.desired.ipAddress}`),
    ...o.services.map(serviceCheck),
    gatewayVipCheck(o.vipGroup, (t) => o.addresses(t.host, podCidrOf(t)).gateway),
  ];
}

/** The gate a Windows rolling playbook declares: `gate: podNetworkGate({...})`. */
export function podNetworkGate(o: PodNetworkGateOptions): RollingGate {
  return Object.freeze({ name: 'pod-network', checks: podNetworkChecks(o), withinSec: o.withinSec ?? 60 });
}
