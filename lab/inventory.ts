// The files a client of the lab reads, pure: known_hosts, and the inventory in Ansible's YAML format,
// which works as-is with `ansible -i`, with `play -i`, and (its values) with plain OpenSSH.
import YAML from 'yaml';
import { KUBECTL_PATH } from './paths.js';
import { HOST_IFACE, type LabGroup } from './hosts/topology.js';

export interface InventoryHost {
  name: string;
  group: LabGroup;
  address: string;
}

export interface InventoryFiles {
  key: string;
  knownHosts: string;
  /** The simulated cluster's state file (the control host's cluster_state var). */
  clusterState?: string;
  /** What the shipped playbooks read on the windows group beyond the connection vars (onboard-windows'
   *  vars: lab/onboard-vars.ts, naming the lab's local stand-in files). */
  windowsPlaybookVars?: Readonly<Record<string, unknown>>;
}

/** Plain (unhashed) entries: `ADDR ssh-ed25519 KEY`, one per host. */
export function knownHostsText(hosts: readonly { address: string; hostKey: string }[]): string {
  return hosts.map((h) => `${h.address} ${h.hostKey}\n`).join('');
}

/**
 * The tor group's vars for the tor-gateway playbook (README "tor-gateway"). VRRP runs on the lab's
 * eth1; each host's unicast_src_ip is its ansible_host, priorities and router ids come from the
 * hosts' positions and names. The password is never written here: it is read from the environment
 * variable VRRP_AUTH_PASS, which `play` loads from the lab's lab.env (lab/secrets.ts) when it uses the
 * lab's inventory (a value exported or in .env wins).
 */
export const LAB_TOR_VARS = Object.freeze({
  vrrp_interface: HOST_IFACE,
  vrrp_virtual_router_id: 188,
  vrrp_instance_name: 'VI_PLAY_LAB_WIN_GATE',
  vrrp_advert_int: 1,
  vrrp_auth_pass: "{{ lookup('env', 'VRRP_AUTH_PASS') }}",
});

/**
 * The windows group's vars: the simulated Windows nodes (lab/windows/, a test double) take the
 * Administrator's password over OpenSSH with PowerShell as the shell. The password is never written
 * here: it is read from the environment variable PLAY_LAB_WINDOWS_PASSWORD, which `play` loads from the
 * lab's lab.env when it uses the lab's inventory.
 */
export const LAB_WINDOWS_VARS = Object.freeze({
  ansible_user: 'Administrator',
  ansible_password: "{{ lookup('env', 'PLAY_LAB_WINDOWS_PASSWORD') }}",
  ansible_shell_type: 'powershell',
});

/** VRRP needs peers: tor-gateway refuses a tor group of one host, and its vars are only written from two on. */
export const MIN_VRRP_HOSTS = 2;

/** The private group's vars: its hosts are reached through the first bastion (the same lab key and
 *  known_hosts for both hops); group vars replace all's, so the known_hosts option is repeated. */
export function labPrivateVars(bastionAddress: string, knownHosts: string) {
  return { ansible_ssh_common_args: `-o UserKnownHostsFile=${knownHosts} -o ProxyJump=root@${bastionAddress}` };
}

export function inventoryObject(hosts: readonly InventoryHost[], files: InventoryFiles) {
  // An empty group is `{}`: linux and tor always exist, so patterns like `tor` stay valid on a linux-only
  // lab. The windows group is there only with Windows nodes (copies of the inventory add their own).
  const group = (g: LabGroup) => {
    const members = hosts.filter((h) => h.group === g);
    if (members.length === 0) return {};
    const bastion = hosts.find((h) => h.group === 'bastion');
    const vars =
      g === 'tor' && members.length >= MIN_VRRP_HOSTS
        ? { vars: { ...LAB_TOR_VARS } }
        : g === 'windows'
          ? { vars: { ...LAB_WINDOWS_VARS, ...files.windowsPlaybookVars } }
          : g === 'private' && bastion
            ? { vars: labPrivateVars(bastion.address, files.knownHosts) }
            : {};
    // A Windows node's cluster and management addresses are its lab address; pod_cidr is left to the
    // cluster, which allocates it later.
    // The control host runs the real kubectl against the API double (lab/cluster/): playbooks call `{{ kubectl }}`.
    const hostVars = (h: InventoryHost) =>
      g === 'windows'
        ? { ansible_host: h.address, cluster_ip: h.address, management_ip: h.address }
        : g === 'control'
          ? {
              ansible_host: h.address,
              kubectl: KUBECTL_PATH,
              ...(files.clusterState ? { cluster_state: files.clusterState } : {}),
            }
          : { ansible_host: h.address };
    return { ...vars, hosts: Object.fromEntries(members.map((h) => [h.name, hostVars(h)])) };
  };
  const windows = hosts.some((h) => h.group === 'windows') ? { windows: group('windows') } : {};
  const control = hosts.some((h) => h.group === 'control') ? { control: group('control') } : {};
  // The jump host groups, only in a lab that has them (`play lab up --bastion N --behind-bastion M`).
  const jumps = Object.fromEntries(
    (['bastion', 'private'] as const).filter((g) => hosts.some((h) => h.group === g)).map((g) => [g, group(g)]),
  );
  return {
    all: {
      vars: {
        ansible_user: 'root',
        ansible_ssh_private_key_file: files.key,
        ansible_ssh_common_args: `-o UserKnownHostsFile=${files.knownHosts}`,
      },
      children: { linux: group('linux'), tor: group('tor'), ...windows, ...control, ...jumps },
    },
  };
}

export function inventoryYaml(hosts: readonly InventoryHost[], files: InventoryFiles): string {
  return `# play lab inventory (written by \`play lab up\`; Ansible YAML format)\n${YAML.stringify(inventoryObject(hosts, files))}`;
}
