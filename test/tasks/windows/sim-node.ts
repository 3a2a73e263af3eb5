// The node the Windows steps' unit tests run against: the lab's simulated Windows node (a test
// double, lab/windows/README.md), in process, our PowerShell running under real PowerShell through
// SimulatedWindowsRemote. Tests say what the node is like as model state (seeds), never as answers.
import type { ExecutionContext } from 'ava';
import { applyPendingChanges, completeBoot } from '../../../lab/windows/boot.js';
import { writeFile } from '../../../lab/windows/file-store.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { SimulatedWindowsRemote } from '../../../lab/windows/powershell/call.js';
import { executableOf } from '../../../lab/windows/services.js';
import type { NodeState, ServiceRecord } from '../../../lab/windows/node-state.js';

/** A fresh node009 (lab/windows/defaults.ts) changed by `seed`, and the Remote a step sees. */
export function simulatedNode(
  t: ExecutionContext,
  seed?: (s: NodeState) => void,
): { node: SimulatedWindowsNode; n: SimulatedWindowsRemote } {
  const node = SimulatedWindowsNode.open({ name: 'node009', rebootSeconds: 0.05, seed });
  t.teardown(() => node.close());
  return { node, n: new SimulatedWindowsRemote(node) };
}

/** A service as its installer leaves it: registered, and its executable on disk (so it can start). */
export function addService(s: NodeState, svc: Pick<ServiceRecord, 'name' | 'binPath'> & Partial<ServiceRecord>): void {
  const running = svc.state === 'Running';
  s.services[svc.name.toLowerCase()] = {
    displayName: svc.name,
    type: 'own',
    startMode: 'Manual',
    account: 'LocalSystem',
    dependencies: [],
    state: 'Stopped',
    pid: running ? s.nextPid : 0,
    win32ExitCode: running ? 0 : 1077,
    pausable: false,
    ...svc,
  };
  if (running) s.nextPid += 4;
  const exe = executableOf(svc.binPath);
  if (!/^[a-z]:\\windows\\/i.test(exe)) writeFile(s, exe, Buffer.from(`simulated ${exe}\n`));
}

/** Docker installed and past its reboot (Containers installed); its service Auto, running or not. */
export function withDocker(s: NodeState, o: { version?: string; running?: boolean; binPath?: string } = {}): void {
  s.features['containers']!.installState = 'Installed';
  s.docker = { install: 'installed', version: o.version ?? '19.03.5' };
  writeFile(s, 'C:\\Program Files\\Docker\\docker.exe', Buffer.from('simulated docker.exe\n'));
  addService(s, {
    name: 'docker',
    displayName: 'Docker Engine',
    binPath: o.binPath ?? '"C:\\Program Files\\Docker\\dockerd.exe" --run-service',
    startMode: 'Auto',
    state: o.running === false ? 'Stopped' : 'Running',
  });
}

/**
 * The node reboots now, as its own timers would do it (model.ts): pending changes applied, a new
 * LastBootUpTime, Auto services started. For tests on a fake clock, where waiting out the node's
 * real-time reboot is not an option; the node's timers stop for good (close()).
 */
export function bootNow(node: SimulatedWindowsNode, at = new Date()): void {
  node.close();
  applyPendingChanges(node.state);
  completeBoot(node.state, at);
  node.reboots++;
  node.save();
}
