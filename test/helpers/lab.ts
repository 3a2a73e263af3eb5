// The shared lab for end-to-end tests. Namespace names are machine-wide, so every test file uses the
// one default lab: ensureLab brings it to at least the asked size (labUp serializes ava's worker
// processes with its lock, leaves healthy hosts alone and restarts dead sshds). Tests must not take
// it down or break hosts other files use; use unique file names and clean up after yourself.
import { execFile } from 'node:child_process';
import { labUp } from '../../lab/lab.js';
import type { LabGroup, LabState } from '../../lab/lab.js';

export interface LabHost {
  name: string;
  group: LabGroup;
  address: string;
}

export interface Lab {
  inventoryPath: string;
  keyPath: string;
  knownHostsPath: string;
  user: 'root';
  /** Every host of the lab (it may hold more than asked for: other test files share it). */
  hosts: LabHost[];
  state: LabState;
  host(name: string): LabHost;
  /** OpenSSH's arguments to run a command on the host: `ssh ...sshArgs(h) 'cmd'`. */
  sshArgs(host: LabHost): string[];
}

export async function ensureLab(
  counts: { linux?: number; tor?: number; windows?: number; control?: number; bastion?: number; private?: number } = {
    linux: 4,
  },
): Promise<Lab> {
  const state = await labUp({
    linux: counts.linux ?? 0,
    tor: counts.tor ?? 0,
    windows: counts.windows ?? 0,
    control: counts.control ?? 0,
    bastion: counts.bastion,
    private: counts.private,
  });
  const hosts = state.hosts.map(({ name, group, address }) => ({ name, group, address }));
  return {
    inventoryPath: state.inventoryPath,
    keyPath: state.keyPath,
    knownHostsPath: state.knownHostsPath,
    user: state.user,
    hosts,
    state,
    host(name) {
      const h = hosts.find((x) => x.name === name);
      if (!h) throw new Error(`the lab has no host ${name}`);
      return h;
    },
    sshArgs(host) {
      return labSshArgs(state, `${state.user}@${host.address}`);
    },
  };
}

/** OpenSSH's arguments for `login` (user@address) on a lab host: the lab's key and known_hosts, strict
 *  host key checking, no prompts. */
export function labSshArgs(state: Pick<LabState, 'keyPath' | 'knownHostsPath'>, login: string): string[] {
  return [
    '-i',
    state.keyPath,
    '-o',
    `UserKnownHostsFile=${state.knownHostsPath}`,
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    'BatchMode=yes',
    '-o',
    'ConnectTimeout=5',
    login,
  ];
}

export interface SshResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `command` on the host with real OpenSSH. Retries a dropped handshake (sshd's MaxStartups
 *  sheds connections when many test files connect at once; exit 255 with "Connection closed"/"reset"). */
export async function sshRun(lab: Lab, host: LabHost, command: string): Promise<SshResult> {
  for (let attempt = 0; ; attempt++) {
    const result = await new Promise<SshResult>((resolve) => {
      execFile(
        'ssh',
        [...lab.sshArgs(host), command],
        { encoding: 'utf8', timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
        },
      );
    });
    const dropped = result.code === 255 && /Connection (closed|reset)|kex_exchange_identification/.test(result.stderr);
    if (!dropped || attempt >= 4) return result;
    await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
  }
}

/** Runs `command` on the host and returns its stdout; a non-zero exit throws with the command, host and stderr. */
export async function onLabHost(lab: Lab, host: string, command: string): Promise<string> {
  const r = await sshRun(lab, lab.host(host), command);
  if (r.code !== 0) throw new Error(`${command} on ${host}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

/** Runs a local program without a shell (ip, ssh-keygen, ...): its exit code and output. */
export function runLocal(file: string, args: string[], timeoutMs = 30_000): Promise<SshResult> {
  return new Promise((res) => {
    execFile(file, args, { encoding: 'utf8', timeout: timeoutMs }, (e, stdout, stderr) =>
      res({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr }),
    );
  });
}
