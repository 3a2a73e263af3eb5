// Lab hooks for one simulated Windows node (lab/windows/, a TEST DOUBLE): reset it to a fresh node, and
// set its injectable faults at run time. Both act on a lab that `up` built, under the lab's lock (so
// they never race `play lab up`).
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { UsageError } from '../runner/index.js';
import { updateClusterState } from './cluster/cluster-state.js';
import { withLabLock } from './lock.js';
import { LOCK_FILE, labPaths, resolveLabDir, windowsNodePaths } from './paths.js';
import type { LabOptions } from './paths.js';
import { readState, writeState } from './lab-state.js';
import { parseHostName, planHost } from './hosts/topology.js';
import type { HostPlan } from './hosts/topology.js';
import type { WindowsNodeFaults } from './windows/faults.js';
import { ensureLabSecrets } from './secrets.js';
import { runningSimulator, startSimulator, stopSimulator } from './windows-simulators.js';
import { writeIfChanged } from './write.js';

export interface WindowsNodeReset {
  name: string;
  /** The new simulator's pid. */
  pid: number;
  /** The node was in the simulated cluster's state and was removed from it. */
  removedFromCluster: boolean;
  /** The node had a model state file (it is gone: the new simulator starts from a fresh node). */
  hadState: boolean;
}

function windowsHost(name: string, dir: string): HostPlan {
  const parsed = parseHostName(name);
  if (parsed?.group !== 'windows')
    throw new UsageError(`${name}: not a simulated Windows node name (node009, node010, ...)`);
  const state = readState(labPaths(dir).state);
  if (!state?.hosts.some((h) => h.name === name))
    throw new UsageError(`${name}: not in the lab at ${dir} (play lab up --windows N first)`);
  return planHost('windows', parsed.index);
}

/**
 * Resets one simulated Windows node to a fresh node: stops its simulator (by pid), deletes its model
 * state file and its faults file, removes the node from the simulated cluster's state, and starts the
 * simulator again. The host key is kept, so known_hosts stays valid. Holds the lab's lock.
 */
export async function resetWindowsNode(name: string, options: LabOptions = {}): Promise<WindowsNodeReset> {
  const dir = resolveLabDir(options);
  const host = windowsHost(name, dir);
  return withLabLock(LOCK_FILE, async () => {
    const paths = labPaths(dir);
    const wp = windowsNodePaths(dir, name);
    await stopSimulator(host, wp);
    const hadState = existsSync(wp.state);
    rmSync(wp.state, { force: true });
    rmSync(wp.faults, { force: true });
    const removedFromCluster = existsSync(paths.clusterState)
      ? updateClusterState(paths.clusterState, (s) => {
          if (!(name in s.nodes)) return false;
          delete s.nodes[name];
          return true;
        })
      : false;
    const pid = await startSimulator(host, wp, ensureLabSecrets(paths).values.PLAY_LAB_WINDOWS_PASSWORD);
    const state = readState(paths.state);
    if (state) {
      const h = state.hosts.find((x) => x.name === name);
      if (h) h.sshdPid = pid;
      writeState(paths.state, state);
    }
    return { name, pid, removedFromCluster, hadState };
  });
}

/**
 * Sets the faults of a running simulated Windows node (a patch over no faults: `{}` or null clears them):
 * writes its faults file and sends SIGHUP; resolves when the simulator has logged the new faults.
 * The simulator must have been started with the faults file (by this lab; resetWindowsNode restarts it).
 */
export async function setWindowsNodeFaults(
  name: string,
  faults: Partial<WindowsNodeFaults> | null,
  options: LabOptions = {},
): Promise<void> {
  const dir = resolveLabDir(options);
  const host = windowsHost(name, dir);
  const wp = windowsNodePaths(dir, name);
  const pid = runningSimulator(wp, host.namespace);
  if (pid === undefined) throw new Error(`${name}: its simulator is not running (play lab up)`);
  if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(wp.faults)) {
    throw new Error(`${name}: its simulator was started without ${wp.faults}: restart it (resetWindowsNode)`);
  }
  const from = existsSync(wp.log) ? statSync(wp.log).size : 0;
  writeIfChanged(wp.faults, `${JSON.stringify(faults ?? {}, null, 2)}\n`, 0o600);
  process.kill(pid, 'SIGHUP');
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const text = readFileSync(wp.log).subarray(from).toString('utf8');
    if (text.includes(`${name}: faults now `)) return;
    const bad = /: faults not changed: (.*)/.exec(text);
    if (bad) throw new Error(`${name}: faults not changed: ${bad[1]}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name}: the simulator did not confirm the new faults within 10 s (see ${wp.log})`);
}
