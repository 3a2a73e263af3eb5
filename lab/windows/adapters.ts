// Network adapters of the simulated Windows node (a test double): found by MAC or name, and what an
// HNS vSwitch does to them. Binding an L2Bridge network to a NIC adds the host vNIC
// "vEthernet (<nic>)" with the NIC's MAC and moves the NIC's IP configuration onto it; removing the
// network moves it back (that is why the netAdapters step configures the vNIC once it exists).
import type { NetAdapterRecord, NodeState } from './node-state.js';

/** Windows compares adapter, network and endpoint names case-insensitively. */
export const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export const vNicName = (nic: string) => `vEthernet (${nic})`;

export function physicalByName(s: NodeState, name: string): NetAdapterRecord | undefined {
  return s.adapters.find((a) => a.physical && sameName(a.name, name));
}

export function physicalByMac(s: NodeState, mac: string): NetAdapterRecord | undefined {
  return s.adapters.find((a) => a.physical && sameName(a.macAddress, mac));
}

/** The adapter that carries a physical NIC's IP configuration: its vNIC when bound to a vSwitch, else itself. */
export function ipInterfaceOf(s: NodeState, nic: NetAdapterRecord): NetAdapterRecord {
  return s.adapters.find((a) => !a.physical && sameName(a.macAddress, nic.macAddress)) ?? nic;
}

export function bindSwitch(s: NodeState, nic: NetAdapterRecord): void {
  if (ipInterfaceOf(s, nic) !== nic) return;
  const index = Math.max(...s.adapters.map((a) => a.interfaceIndex)) + 1;
  s.adapters.push({ ...nic, name: vNicName(nic.name), interfaceIndex: index, physical: false });
  Object.assign(nic, { dhcp: false, ipv4: [], gateway: null, dnsServers: [] });
}

export function unbindSwitch(s: NodeState, nicName: string): void {
  const nic = physicalByName(s, nicName);
  if (!nic) return;
  const vnic = ipInterfaceOf(s, nic);
  if (vnic === nic) return;
  Object.assign(nic, { dhcp: vnic.dhcp, ipv4: vnic.ipv4, gateway: vnic.gateway, dnsServers: vnic.dnsServers });
  s.adapters = s.adapters.filter((a) => a !== vnic);
}
