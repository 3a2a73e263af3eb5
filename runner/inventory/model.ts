// The inventory as the runner sees it, after loading and validation: hosts in inventory order,
// their merged variables (Ansible's precedence), groups, and how to connect to each host.
import type { Secret } from '../core/secret.js';

export type OsFamily = 'linux' | 'windows';

/** A variable written as `{{ lookup('env', 'NAME') }}`: resolved from the environment only when used. */
export class EnvRef {
  constructor(readonly envVar: string) {}
  toJSON(): string {
    return `{{ lookup('env', '${this.envVar}') }}`;
  }
}

/** Privilege escalation: sudo to `user` (ansible_become_user, default root). */
export interface BecomeSpec {
  readonly method: 'sudo';
  readonly user: string;
}

export interface ConnectionSpec {
  /** ansible_host, or the host name. */
  address: string;
  /** ansible_port, default 22. */
  port: number;
  /** ansible_user, default the current user. */
  user: string;
  os: OsFamily;
  /** ansible_ssh_private_key_file, resolved relative to the inventory source's directory. */
  keyFile?: string;
  /** The variable (or flag: --private-key) that set keyFile (of ansible's two aliases, the one its ssh plugin reads last wins), for messages. */
  keyFrom?: string;
  /** A password (ansible_password / ansible_ssh_pass) from the environment or a vault, else -k's. */
  password?: EnvRef | Secret;
  /** ansible_become_password / ansible_become_pass from the environment or a vault, else -K's. */
  becomePassword?: EnvRef | Secret;
  /** ansible_become: commands run through sudo as this user (runner/inventory/become.ts). */
  become?: BecomeSpec;
  /** known_hosts path from ansible_ssh_common_args/extra_args `-o UserKnownHostsFile=...` or play_known_hosts. */
  knownHostsFile?: string;
  /** The bastion reached first (ProxyJump, -J or ProxyCommand `ssh -W` in the ssh args or ssh_config: runner/inventory/jump.ts). */
  jump?: JumpSpec;
  /** ssh_config IdentityFile lines (runner/ssh-config/), expanded, tried after keyFile; a missing one is skipped, as ssh does. */
  identityFiles?: readonly IdentityFile[];
  /** ssh_config IdentitiesOnly yes: of ssh-agent's keys, only those of keyFile and identityFiles are offered. */
  identitiesOnly?: boolean;
  /** ssh_config StrictHostKeyChecking accept-new (or no): an unknown host key is recorded, a changed one still refused. */
  acceptNew?: boolean;
  /** ssh_config ConnectTimeout, ServerAliveInterval, ServerAliveCountMax. */
  connectTimeoutSec?: number;
  serverAliveIntervalSec?: number;
  serverAliveCountMax?: number;
}

/** A private key file named by ssh_config, and where: `/home/me/.ssh/config:12`, for messages. */
export interface IdentityFile {
  readonly file: string;
  readonly from: string;
}

/** A jump host, resolved: where to connect and as whom; its host key is checked in the host's known_hosts. */
export interface JumpSpec {
  /** As written in the setting: an inventory host's name (whose connection vars gave the rest) or an address. */
  readonly hostName: string;
  readonly address: string;
  readonly port: number;
  readonly user: string;
  readonly keyFile?: string;
  /** Where keyFile comes from, for messages: `bastion1's ansible_ssh_private_key_file`, `ansible_ssh_common_args (-i)`. */
  readonly keyFrom?: string;
  /** The bastion's ssh_config IdentityFile lines. */
  readonly identityFiles?: readonly IdentityFile[];
}

export interface Host {
  readonly name: string;
  /** Merged variables: all < parent group < child group < host. */
  readonly vars: Readonly<Record<string, unknown>>;
  /** Every group the host belongs to, directly or through children: `all` first, then in precedence order. */
  readonly groups: readonly string[];
  readonly connection: ConnectionSpec;
}

export interface Group {
  readonly name: string;
  /** Hosts of the group, then of its descendants level by level, each once (ansible's Group.get_hosts). */
  readonly hosts: readonly string[];
  /** The hosts listed in the group itself (ansible's Group.hosts), in order. Absent: not known. */
  readonly ownHosts?: readonly string[];
  readonly children: readonly string[];
  readonly vars: Readonly<Record<string, unknown>>;
}

export interface Inventory {
  /** The first inventory source (a file or a directory). */
  readonly file: string;
  /** Every source given (-i, in order); absent: just `file`. */
  readonly sources?: readonly string[];
  /** The inventory files read, in order (a directory's files included). */
  readonly files?: readonly string[];
  /** All hosts, in inventory order: the order of `ansible all --list-hosts` (and of ansible-playbook runs). */
  readonly hosts: readonly Host[];
  /**
   * Host names in order of first mention in the file (ansible's host table), which is the order
   * a host-name glob matches in. Absent: the same as `hosts`.
   */
  readonly fileOrder?: readonly string[];
  /** Things Ansible would warn about too (odd group names, Jinja2 templates play does not render). */
  readonly warnings?: readonly string[];
  /** In order of first mention (`all` and `ungrouped` first), the order patterns match groups in. */
  readonly groups: ReadonlyMap<string, Group>;
  host(name: string): Host | undefined;
}

export interface ResolvedSecrets {
  password?: Secret;
  becomePassword?: Secret;
}
