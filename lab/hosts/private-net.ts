// The lab's private segment, for jump hosts (topology.ts has the plan): the bridge playlab1, with no
// address in the root namespace and no route to it, so the hosts on it (private1..) cannot be reached
// from here; and each bastion's second leg on it (eth2). Only a bastion, which also has a leg on
// playlab0, reaches them: that is what `play lab up --bastion N --behind-bastion M` is for.
// Idempotent, like netns.ts: what exists is left alone, what is missing is made.
import { existsSync, readdirSync } from 'node:fs';
import { BRIDGE_TOOL, IP, mapLimit, run, runInput } from '../exec.js';
import { PRIVATE_BRIDGE, inLabRange, macFor, privateVethName, type HostPlan, type PrivateLeg } from './topology.js';

const linkExists = (name: string) => existsSync(`/sys/class/net/${name}`);
/** Fixed, as playlab0's is (topology.ts BRIDGE_MAC): from the segment's network address. */
const PRIVATE_BRIDGE_MAC = macFor('198.18.32.0');

const needsPrivateNet = (plan: readonly HostPlan[]) => plan.some((h) => h.bridge === PRIVATE_BRIDGE || h.privateLeg);

/** The private bridge, before any host's veth is put on it: up, and without an address or an IPv6 link-local. */
export async function ensurePrivateBridge(plan: readonly HostPlan[]): Promise<void> {
  if (!needsPrivateNet(plan)) return;
  await runInput(
    IP,
    ['-batch', '-'],
    [
      ...(linkExists(PRIVATE_BRIDGE) ? [] : [`link add ${PRIVATE_BRIDGE} address ${PRIVATE_BRIDGE_MAC} type bridge`]),
      `link set ${PRIVATE_BRIDGE} addrgenmode none`,
      `link set ${PRIVATE_BRIDGE} up`,
    ].join('\n') + '\n',
  );
}

/** Each bastion's second leg: the veth pair (eth2 inside) on the private bridge, then its address inside.
 *  Run after the namespaces exist (netns.ts ensureRootNetworks). */
export async function ensurePrivateLegs(plan: readonly HostPlan[]): Promise<void> {
  const bastions = plan.filter((h): h is HostPlan & { privateLeg: PrivateLeg } => h.privateLeg !== undefined);
  if (bastions.length === 0) return;
  const root: string[] = [];
  for (const { namespace, privateLeg: leg } of bastions) {
    if (!inLabRange(leg.address)) throw new Error(`${namespace}: ${leg.address} is outside 198.18.0.0/15`);
    if (!linkExists(leg.veth)) {
      // A leftover eth2 inside (its root end gone) would make the pair's creation fail.
      await run(IP, ['-n', namespace, 'link', 'del', leg.iface], { allowFail: true });
      root.push(`link add ${leg.veth} type veth peer name ${leg.iface} address ${leg.mac} netns ${namespace}`);
    }
    root.push(`link set ${leg.veth} addrgenmode none`, `link set ${leg.veth} master ${PRIVATE_BRIDGE} up`);
  }
  await runInput(IP, ['-batch', '-'], root.join('\n') + '\n');
  await runInput(
    BRIDGE_TOOL,
    ['-batch', '-'],
    bastions.map((h) => `fdb replace ${h.privateLeg.mac} dev ${h.privateLeg.veth} master static`).join('\n') + '\n',
  );
  await mapLimit(bastions, 8, ({ namespace, privateLeg: leg }) =>
    runInput(
      IP,
      ['-n', namespace, '-batch', '-'],
      [
        `link set ${leg.iface} addrgenmode none`,
        `addr replace ${leg.address}/${leg.prefixLength} dev ${leg.iface}`,
        `link set ${leg.iface} up`,
      ].join('\n') + '\n',
    ),
  );
}

/** The hosts whose veths are ports of the private bridge (private1.. by their `pl-` veths). */
export function privateBridgePorts(): string[] {
  try {
    return readdirSync(`/sys/class/net/${PRIVATE_BRIDGE}/brif`);
  } catch {
    return [];
  }
}

/** Removes the bastions' second legs and the private bridge (the hosts' own veths go with netns.ts). */
export async function removePrivateNetwork(hosts: readonly string[]): Promise<void> {
  const legs = hosts.map(privateVethName).filter(linkExists);
  if (legs.length > 0)
    await runInput(IP, ['-force', '-batch', '-'], legs.map((v) => `link del ${v}`).join('\n') + '\n', {
      allowFail: true,
    });
  if (linkExists(PRIVATE_BRIDGE)) await run(IP, ['link', 'del', PRIVATE_BRIDGE], { allowFail: true });
}

/** A TCP connection to address:port accepted within timeoutMs, as seen from inside the bastion's
 *  namespace (the only place a private host can be reached from). */
export async function reachableFrom(namespace: string, address: string, port: number, timeoutMs: number) {
  if (!inLabRange(address)) return false;
  const seconds = String(Math.max(1, Math.ceil(timeoutMs / 1000)));
  // bash's /dev/tcp: the address and port arrive as positional parameters, never in the script text.
  const r = await run(
    IP,
    ['netns', 'exec', namespace, 'timeout', seconds, 'bash', '-c', 'exec 3<>"/dev/tcp/$0/$1"', address, String(port)],
    { allowFail: true, timeoutMs: timeoutMs + 2000 },
  );
  return r.code === 0;
}
