// The files a client of the lab reads, pure: known_hosts, and the inventory in Ansible's YAML format,
// which works as-is with `ansible -i`, with `play -i`, and (its values) with plain OpenSSH.
import YAML from 'yaml';
import type { LabGroup } from './topology.js';

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

export function inventoryObject(hosts: readonly InventoryHost[], files: InventoryFiles) {
  // An empty group is `{}`: both groups always exist, so patterns like `tor` stay valid on a linux-only lab.
  const group = (g: LabGroup) => {
    const members = hosts.filter((h) => h.group === g);
    return members.length === 0 ? {} : { hosts: Object.fromEntries(members.map((h) => [h.name, { ansible_host: h.address }])) };
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
