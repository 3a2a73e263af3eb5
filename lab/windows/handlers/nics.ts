// NICs, the DNS client and the destructive network clean-up on the simulated Windows node (a test
// double), with the errors the NetTCPIP and NetAdapter cmdlets give.
import { ipInterfaceOf, physicalByMac, sameName } from '../adapters.js';
import { WindowsError } from '../errors.js';
import { getValue, setValue } from '../registry-store.js';
import type { NetAdapterRecord } from '../state.js';
import { removeNetwork } from './network.js';
import type { Handlers } from './types.js';

const TCPIP = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';
const CLEANUP = 'HKLM:\\SOFTWARE\\Play\\NetworkCleanup';
const address = (cidr: string) => cidr.split('/')[0]!;

function view(nic: NetAdapterRecord, ipIf: NetAdapterRecord) {
  return {
    macAddress: nic.macAddress,
    name: nic.name,
    interfaceIndex: nic.interfaceIndex,
    ipInterface: ipIf.name,
    dhcp: ipIf.dhcp,
    ipv4: [...ipIf.ipv4],
    gateway: ipIf.gateway,
    dnsServers: [...ipIf.dnsServers],
  };
}

export const nicHandlers = {
  'Get-PlayNetAdapters': (node, { macAddresses }) => {
    const adapters = macAddresses.flatMap((mac) => {
      const nic = physicalByMac(node.state, mac);
      return nic ? [view(nic, ipInterfaceOf(node.state, nic))] : [];
    });
    return { adapters };
  },

  'Set-PlayNetAdapter': (node, a) => {
    const s = node.state;
    const nic = physicalByMac(s, a.macAddress);
    if (!nic) throw new WindowsError(`there is no physical network adapter with MAC address ${a.macAddress}`);
    const ipIf = ipInterfaceOf(s, nic);
    if (a.dnsServers) ipIf.dnsServers = [...a.dnsServers];
    if (a.ipv4) {
      for (const cidr of a.ipv4) {
        const owner = s.adapters.find((x) => x !== ipIf && x.ipv4.some((y) => address(y) === address(cidr)));
        if (owner)
          throw new WindowsError(
            `New-NetIPAddress : The object already exists.\r\n(${address(cidr)} is on ${owner.name})`,
          );
      }
      ipIf.dhcp = false;
      ipIf.ipv4 = [...a.ipv4];
    }
    if (a.gateway !== undefined) ipIf.gateway = a.gateway;
    if (a.newName !== undefined && !sameName(a.newName, nic.name)) {
      if (s.adapters.some((x) => sameName(x.name, a.newName!))) {
        throw new WindowsError(
          `Rename-NetAdapter : {Object Exists} An attempt was made to create an object and the object name already existed.`,
        );
      }
      // HNS and the vNIC keep naming the NIC as it was; the field notes rename before step 8.
      nic.name = a.newName;
    }
    return {};
  },

  'Get-PlayDnsClient': (node) => {
    const domain = getValue(node.state, TCPIP, 'NV Domain');
    return {
      primaryDomain: domain ? String(domain.data) : null,
      suffixSearchList: [...node.state.dnsSuffixSearchList],
    };
  },

  'Set-PlayDnsClient': (node, a) => {
    if (a.primaryDomain !== undefined) setValue(node.state, TCPIP, 'NV Domain', 'String', a.primaryDomain);
    if (a.suffixSearchList !== undefined) node.state.dnsSuffixSearchList = [...a.suffixSearchList];
    return {};
  },

  'Get-PlayNetworkCleanup': (node) => {
    const s = node.state;
    const token = getValue(s, CLEANUP, 'Token');
    const bootTime = getValue(s, CLEANUP, 'BootTime');
    return {
      token: token ? String(token.data) : null,
      rebootPending: token !== null && bootTime !== null && String(bootTime.data) === s.os.lastBootUpTime,
      hnsNetworks: s.hns.networks.map((n) => n.name),
      ghostAdapters: s.pnpNetDevices
        .filter((d) => d.status === 'Error')
        .map(({ instanceId, friendlyName }) => ({ instanceId, friendlyName })),
    };
  },

  'Invoke-PlayNetworkCleanup': (node, a) => {
    const s = node.state;
    const removedNetworks = a.removeHnsNetworks ? s.hns.networks.map((n) => n.name) : [];
    for (const name of removedNetworks) removeNetwork(s, s.hns.networks.find((n) => n.name === name)!);
    const removedAdapters = a.removeGhostAdapters
      ? s.pnpNetDevices.filter((d) => d.status === 'Error').map((d) => d.instanceId)
      : [];
    s.pnpNetDevices = s.pnpNetDevices.filter((d) => !removedAdapters.includes(d.instanceId));
    setValue(s, CLEANUP, 'Token', 'String', a.token);
    setValue(s, CLEANUP, 'BootTime', 'String', s.os.lastBootUpTime);
    return { removedNetworks, removedAdapters };
  },
} satisfies Partial<Handlers>;
