// What the lab is: state.json in the lab dir, written after every `up`, read by status/down/inventory.
import { readFileSync } from 'node:fs';
import type { NeighbourThresholds } from './hosts/netns.js';
import type { LabCounts, LabGroup } from './hosts/topology.js';
import { writeIfChanged } from './write.js';

export interface LabHostState {
  name: string;
  group: LabGroup;
  address: string;
  /** Network namespace (same as name). */
  namespace: string;
  /** Interface inside the namespace (eth1) and the bridge port it pairs with. */
  iface: string;
  veth: string;
  /** The host's folder in the lab dir (sshd_config, host key, pidfile, log, private dirs; for a Windows
   *  node the simulator's state, host key, pidfile and log). */
  dir: string;
  /** What answers SSH: sshd, or (windows group) the simulated Windows node, a test double. */
  server: 'sshd' | 'simulator';
  /** The listening sshd (or simulator), as of this state's writing. */
  sshdPid: number;
  /** `ssh-ed25519 AAAA...`, as in known_hosts. */
  hostKey: string;
  /** This host's /etc overrides (/etc/netns/NAME), and whether the lab created that directory. */
  etcDir: string;
  etcCreated: boolean;
}

export interface LabState {
  version: 1;
  dir: string;
  user: 'root';
  inventoryPath: string;
  keyPath: string;
  publicKeyPath: string;
  knownHostsPath: string;
  bridge: string;
  bridgeAddress: string;
  /** Routed onto the bridge in the root namespace. */
  route: string;
  /** The hosts that exist (up never removes any). */
  counts: LabCounts;
  /** What the latest `up` asked for. */
  requested: LabCounts;
  /** linux1..N then tor1..M. */
  hosts: LabHostState[];
  /** Hosts beyond what the latest `up` asked for: kept, not removed (`play lab down` removes all). */
  kept: string[];
  /** Hosts whose sshd the latest `up` started (new hosts and restarted ones); the others were healthy. */
  started: string[];
  /** What the latest `up` did that a caller may want to print. */
  notes: string[];
  /** The lab created /etc/netns itself (so down removes it when empty). */
  etcNetnsCreated: boolean;
  /** The root namespace's neighbour table limits before the lab raised them for its size (absent when
   *  it never did): `play lab down` puts them back. */
  neighbourTable?: NeighbourThresholds;
  updatedAt: string;
}

export function readState(file: string): LabState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const state = JSON.parse(text) as LabState;
  if (state.version !== 1 || !Array.isArray(state.hosts))
    throw new Error(`${file}: not a play lab state file (version 1)`);
  return state;
}

/** Replaced by rename, so a reader (status, inventory) never sees half a file. */
export function writeState(file: string, state: LabState): void {
  writeIfChanged(file, JSON.stringify(state, null, 2) + '\n');
}
