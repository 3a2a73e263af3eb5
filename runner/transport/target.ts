// What one SSH connection is to: the inventory host, reduced to what the transport needs.
import type { Secret } from '../core/secret.js';

export interface SshTarget {
  /** The inventory name, used in every message. */
  readonly hostName: string;
  readonly address: string;
  readonly port: number;
  readonly user: string;
  /** ansible_ssh_private_key_file. */
  readonly keyFile?: string;
  /** The setting keyFile comes from, for messages (default ansible_ssh_private_key_file). */
  readonly keyFrom?: string;
  /** ssh_config's IdentityFile lines, tried after keyFile; a missing or encrypted one is passed over, as ssh does. */
  readonly identityFiles?: readonly { readonly file: string; readonly from: string }[];
  /** ssh_config IdentitiesOnly: ssh-agent may offer only the keys of keyFile and identityFiles. */
  readonly identitiesOnly?: boolean;
  readonly password?: Secret;
  /** Where the password comes from, for messages: the environment variable's name. */
  readonly passwordFrom?: string;
  /** The jump host the connection goes through (runner/transport/jump-host.ts). */
  readonly jump?: SshTarget;
}

/** `address:port`, bracketing IPv6 addresses: the key for per-endpoint limits and messages. */
export function endpointOf(t: Pick<SshTarget, 'address' | 'port'>): string {
  return t.address.includes(':') ? `[${t.address}]:${t.port}` : `${t.address}:${t.port}`;
}

/** `linux1 (198.18.0.101:22)`, or `db1 (10.0.0.5:22 via bastion1 198.18.2.1:22)`: how messages name a host. */
export function where(t: Pick<SshTarget, 'hostName' | 'address' | 'port' | 'jump'>): string {
  const j = t.jump;
  const via = j ? ` via ${j.hostName === j.address ? '' : `${j.hostName} `}${endpointOf(j)}` : '';
  return `${t.hostName} (${endpointOf(t)}${via})`;
}
