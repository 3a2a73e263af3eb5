// The lab's network: the bridge in the root namespace (with the route that keeps every lab address
// on this machine), and per host a network namespace joined to the bridge by a veth pair.
// Every function is idempotent: it checks /run/netns and /sys/class/net and fixes what is missing.
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';
import { ip, run, IP } from './exec.js';
import { namespacePath } from './sshd.js';
import { BRIDGE, BRIDGE_ADDRESS, BRIDGE_MAC, LAB_ROUTE, PREFIX_LENGTH, inLabRange } from './topology.js';
import type { HostPlan } from './topology.js';

function linkExists(name: string): boolean {
  return existsSync(`/sys/class/net/${name}`);
}

export function namespaceExists(ns: string): boolean {
  return existsSync(namespacePath(ns));
}

export async function ensureBridge(): Promise<void> {
  if (!linkExists(BRIDGE)) await ip('link', 'add', BRIDGE, 'type', 'bridge');
  await ip('link', 'set', BRIDGE, 'address', BRIDGE_MAC);
  await ip('addr', 'replace', `${BRIDGE_ADDRESS}/${PREFIX_LENGTH}`, 'dev', BRIDGE);
  await ip('link', 'set', BRIDGE, 'up');
  // The root namespace has a default route: without this, a packet for a lab address that no host
  // holds (yet) would go out through it. With it, every 198.18.0.0/15 packet stays on the bridge.
  await ip('route', 'replace', LAB_ROUTE, 'dev', BRIDGE);
}

/** The bridge port exists, is attached to the bridge, and its namespace is there. */
export function hostNetworkLooksUp(host: HostPlan): boolean {
  if (!namespaceExists(host.namespace)) return false;
  try {
    return basename(readlinkSync(`/sys/class/net/${host.veth}/master`)) === BRIDGE;
  } catch {
    return false;
  }
}

/** Namespace, veth pair (eth1 inside), address, links up, loopback up, no default route. */
export async function ensureHostNetwork(host: HostPlan): Promise<void> {
  if (!inLabRange(host.address)) throw new Error(`${host.name}: ${host.address} is outside 198.18.0.0/15`);
  if (!namespaceExists(host.namespace)) {
    // A root-side veth without our namespace belongs to an old namespace that something keeps alive:
    // drop it so the new pair really leads into the new namespace.
    if (linkExists(host.veth)) await ip('link', 'del', host.veth);
    await ip('netns', 'add', host.namespace);
  }
  if (!linkExists(host.veth)) {
    // A leftover eth1 inside would make the pair's creation fail.
    await run(IP, ['-n', host.namespace, 'link', 'del', host.iface], { allowFail: true });
    await ip('link', 'add', host.veth, 'type', 'veth', 'peer', 'name', host.iface, 'address', host.mac, 'netns', host.namespace);
  }
  await ip('link', 'set', host.veth, 'master', BRIDGE, 'up');
  await ip('-n', host.namespace, 'addr', 'replace', `${host.address}/${host.prefixLength}`, 'dev', host.iface);
  await ip('-n', host.namespace, 'link', 'set', host.iface, 'up');
  await ip('-n', host.namespace, 'link', 'set', 'lo', 'up');
  // After the link is up (a route onto a down link is refused). Never a default route.
  for (const route of host.routes) {
    if (!inLabRange(route.split('/')[0]!)) throw new Error(`${host.name}: route ${route} is outside 198.18.0.0/15`);
    await ip('-n', host.namespace, 'route', 'replace', route, 'dev', host.iface);
  }
}

/** Deletes the namespace and the veth (the pair goes when either end does). */
export async function removeHostNetwork(host: Pick<HostPlan, 'namespace' | 'veth'>): Promise<void> {
  if (namespaceExists(host.namespace)) await run(IP, ['netns', 'del', host.namespace], { allowFail: true });
  // The namespace lingers while a process is in it, and the veth with it: delete the veth explicitly.
  if (linkExists(host.veth)) await run(IP, ['link', 'del', host.veth], { allowFail: true });
}

/** Deletes the bridge; its address and the lab route go with it. */
export async function removeBridge(): Promise<void> {
  if (linkExists(BRIDGE)) await run(IP, ['link', 'del', BRIDGE], { allowFail: true });
}

export function bridgeExists(): boolean {
  return linkExists(BRIDGE);
}

/** Interfaces attached to the bridge. */
export function bridgePorts(): string[] {
  try {
    return readdirSync(`/sys/class/net/${BRIDGE}/brif`);
  } catch {
    return [];
  }
}
