// `play lab down`: removes everything `up` made: the hosts' processes, namespaces, veths, /etc/netns
// entries, the bridges (and with playlab0 the lab route), and the lab dir's files. Idempotent.
import { existsSync, readFileSync, rmSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { checkPreconditions, mapLimit } from './exec.js';
import { removeEtcNetnsIfEmpty, removeHostEtc } from './hosts/host-files.js';
import { inPart, labParts, runLabAction } from './lab-failure.js';
import { bridgePorts, removeBridge, removeHostNetworks, restoreNeighbourThresholds } from './hosts/netns.js';
import { OWNER_FILE, hostPaths, labPaths, resolveLabDir, windowsNodePaths } from './paths.js';
import type { LabOptions, LabPaths } from './paths.js';
import { privateBridgePorts, removePrivateNetwork } from './hosts/private-net.js';
import { pidsInNamespaces, runningSshd, terminate } from './hosts/sshd.js';
import { clusterApiPaths, stopApiByPidfile } from './cluster/api-process.js';
import { eventsFile } from './cluster/events.js';
import { readState } from './lab-state.js';
import { removeSudoUsers } from './hosts/sudo-users.js';
import type { LabState } from './lab-state.js';
import { hostOfVeth, parseHostName, planHost, vethName } from './hosts/topology.js';
import { stopSimulator } from './windows-simulators.js';

export async function labDown(options: LabOptions = {}): Promise<void> {
  checkPreconditions();
  const dir = resolveLabDir(options);
  await runLabAction('down', dir, () => down(dir));
}

async function down(dir: string): Promise<void> {
  const paths = labPaths(dir);
  let state: LabState | undefined;
  try {
    state = readState(paths.state);
  } catch {
    /* unreadable: fall back to what the bridge shows */
  }
  // Hosts from the state, plus any whose veth is still on the bridge (state lost or from a crashed up).
  const names = new Set(state?.hosts.map((h) => h.name) ?? []);
  for (const port of [...bridgePorts(), ...privateBridgePorts()]) {
    const host = hostOfVeth(port);
    if (host) names.add(host);
  }

  // The servers, then anything else still in the namespaces (sessions, daemons a playbook started):
  // a namespace with processes in it outlives `ip netns del`, and so does its veth. All hosts at once,
  // with one pass over /proc: a thousand hosts one by one would take minutes.
  const windowsHosts = [...names]
    .map((name) => ({ name, parsed: parseHostName(name) }))
    .filter((h) => h.parsed?.group === 'windows');
  // The simulated Windows nodes by their pidfiles (SIGTERM: each closes its state file cleanly).
  await mapLimit(windowsHosts, 8, (h) =>
    inPart(labParts.windows(dir, h.name), () =>
      stopSimulator(planHost('windows', h.parsed!.index), windowsNodePaths(dir, h.name)),
    ),
  );
  // The Kubernetes API double lives in control1's namespace: the sweep below would end it too; by its
  // pidfile it goes first, on its own.
  await inPart(labParts.api(dir), () => stopApiByPidfile(clusterApiPaths(dir).pidFile));
  await inPart(labParts.processes(), async () => {
    const sshds = [...names].map((name) => runningSshd(hostPaths(dir, name), name)).filter((pid) => pid !== undefined);
    await terminate(sshds);
    await terminate([...pidsInNamespaces([...names]).values()].flat());
  });
  await inPart(labParts.network(), async () => {
    await removePrivateNetwork([...names]);
    await removeHostNetworks([...names].map((name) => ({ namespace: name, veth: vethName(name) })));
  });
  const recorded = new Map(state?.hosts.map((h) => [h.name, h]));
  for (const name of names) {
    // Its /etc overrides: when the lab made the directory, or (state lost) it holds only the lab's entries.
    await inPart(labParts.hostEtc(dir, name), () =>
      removeHostEtc(hostPaths(dir, name).etc, recorded.get(name)?.etcCreated === true),
    );
  }
  await inPart(labParts.network(), async () => {
    await removeBridge();
    if (state?.neighbourTable) restoreNeighbourThresholds(state.neighbourTable);
    if (state?.etcNetnsCreated) removeEtcNetnsIfEmpty();
  });
  await inPart(labParts.users(), () => removeSudoUsers(dir));
  await inPart(labParts.files(dir), () => removeLabFiles(paths, [...names]));
  try {
    if (readFileSync(OWNER_FILE, 'utf8').trim() === dir) rmSync(OWNER_FILE, { force: true });
  } catch {
    /* none */
  }
}

/** Only the files the lab writes, and only in a directory that holds a lab: a mistyped PLAY_LAB_DIR
 *  must not cost anyone their files. The directory goes when nothing else is left in it. */
function removeLabFiles(paths: LabPaths, hosts: readonly string[]): void {
  const isLab = existsSync(paths.state) || (existsSync(paths.key) && existsSync(paths.authorizedKeys));
  if (!isLab) return;
  for (const host of hosts) rmSync(hostPaths(paths.dir, host).dir, { recursive: true, force: true });
  try {
    rmdirSync(paths.hostsDir);
  } catch {
    /* absent, or holds something that is not a lab host */
  }
  for (const file of [
    paths.inventory,
    paths.knownHosts,
    paths.authorizedKeys,
    paths.key,
    paths.publicKey,
    paths.env,
    paths.legacyWindowsEnv,
    paths.clusterState,
    `${paths.clusterState}.lock`,
    eventsFile(paths.clusterState),
    paths.state,
  ]) {
    rmSync(file, { force: true });
  }
  // The Kubernetes API double's credentials, pidfile and log.
  rmSync(clusterApiPaths(paths.dir).dir, { recursive: true, force: true });
  // The stand-in files the inventory names, and the demo's folder of older labs (demo/).
  for (const dir of [paths.filesDir, join(paths.dir, 'demo')]) rmSync(dir, { recursive: true, force: true });
  try {
    rmdirSync(paths.dir);
  } catch {
    /* not empty: someone else's files are in it */
  }
}
