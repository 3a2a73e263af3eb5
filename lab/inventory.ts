// The files a client of the lab reads, pure: known_hosts, and the inventory in Ansible's YAML format,
// which works as-is with `ansible -i`, with `play -i`, and (its values) with plain OpenSSH.
import YAML from 'yaml';
import { HOST_IFACE, type LabGroup } from './topology.js';

export interface InventoryHost {
  name: string;
  group: LabGroup;
  address: string;
}

export interface InventoryFiles {
  key: string;
  knownHosts: string;
}

/** Plain (unhashed) entries: `ADDR ssh-ed25519 KEY`, one per host. */
export function knownHostsText(hosts: readonly { address: string; hostKey: string }[]): string {
  return hosts.map((h) => `${h.address} ${h.hostKey}\n`).join('');
}

/**
 * The tor group's vars for the tor-gateway playbook (README "tor-gateway"). VRRP runs on the lab's
 * eth1; each host's unicast_src_ip is its ansible_host, priorities and router ids come from the
 * hosts' positions and names. The password is never written here: tor-gateway reads it from the
 * environment variable VRRP_AUTH_PASS (export it, or put it in .env), and refuses to run without.
 */
export const LAB_TOR_VARS = Object.freeze({
  vrrp_interface: HOST_IFACE,
  vrrp_virtual_router_id: 188,
  vrrp_instance_name: 'VI_PLAY_LAB_WIN_GATE',
  vrrp_advert_int: 1,
  vrrp_auth_pass: "{{ lookup('env', 'VRRP_AUTH_PASS') }}",
});

/** VRRP needs peers: tor-gateway refuses a tor group of one host, and its vars are only written from two on. */
export const MIN_VRRP_HOSTS = 2;

export function inventoryObject(hosts: readonly InventoryHost[], files: InventoryFiles) {
  // An empty group is `{}`: both groups always exist, so patterns like `tor` stay valid on a linux-only lab.
  const group = (g: LabGroup) => {
    const members = hosts.filter((h) => h.group === g);
    if (members.length === 0) return {};
    const vars = g === 'tor' && members.length >= MIN_VRRP_HOSTS ? { vars: { ...LAB_TOR_VARS } } : {};
    return { ...vars, hosts: Object.fromEntries(members.map((h) => [h.name, { ansible_host: h.address }])) };
  };
  return {
    all: {
      vars: {
        ansible_user: 'root',
        ansible_ssh_private_key_file: files.key,
        ansible_ssh_common_args: `-o UserKnownHostsFile=${files.knownHosts}`,
      },
      children: { linux: group('linux'), tor: group('tor') },
    },
  };
}

export function inventoryYaml(hosts: readonly InventoryHost[], files: InventoryFiles): string {
  return `# play lab inventory (written by \`play lab up\`; Ansible YAML format)\n${YAML.stringify(inventoryObject(hosts, files))}`;
}
