// The simulated cluster in the lab (a TEST DOUBLE of the API server; the client is real): `play lab up
// --control 1` makes its state file (with control1 as its master), its credentials (a CA, the server's
// certificate for control1's address, a bearer token), runs the Kubernetes API double inside control1's
// namespace on 198.18.0.5:6443, and gives control1 the REAL kubectl: /opt/play-lab/bin/kubectl, a
// wrapper in control1's private /opt that execs /usr/bin/kubectl with a kubeconfig there, so playbooks
// run it over SSH as `{{ kubectl }}` and every kubectl play runs goes through the real client.
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from '../../runner/index.js';
import { KUBECTL_PATH } from '../paths.js';
import { writeIfChanged } from '../write.js';
import { API_PORT, clusterApiPaths, labApiProcess, runningApi, startApi, stopApi } from './api-process.js';
import { ensureApiCredentials, kubeconfigText } from './api/tls.js';
import { LAB_CLUSTER, newClusterState, registerNode, updateClusterState } from './cluster-state.js';

/** The client control1 runs: the real kubectl, from the machine (the lab hosts share its /usr). */
export const REAL_KUBECTL = '/usr/bin/kubectl';
/** Inside control1 (its private /opt): the kubeconfig and kubectl's cache. */
export const KUBECONFIG_PATH = '/opt/play-lab/kubeconfig';
const CACHE_DIR = '/opt/play-lab/kube-cache';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function kubectlWrapper(kubectl = REAL_KUBECTL, kubeconfig = KUBECONFIG_PATH, cacheDir = CACHE_DIR): string {
  return [
    '#!/bin/sh',
    "# The play lab's kubectl (written by `play lab up`): the real kubectl, against the lab's Kubernetes API",
    '# double (lab/cluster/api/, a test double of kube-apiserver) on this host.',
    `exec ${quote(kubectl)} --kubeconfig ${quote(kubeconfig)} --cache-dir ${quote(cacheDir)} "$@"`,
    '',
  ].join('\n');
}

export function requireKubectl(path = REAL_KUBECTL): void {
  if (!existsSync(path))
    throw new UsageError(
      `${path} not found: the lab's control host runs the real kubectl against its Kubernetes API double; install it with \`apt-get install kubernetes-client\``,
    );
}

function ensureState(stateFile: string, control: { name: string; address: string }): void {
  updateClusterState(
    stateFile,
    (s) => {
      if (s.nodes[control.name]) return;
      registerNode(s, {
        name: control.name,
        ready: true,
        roles: ['master'],
        os: 'linux',
        addresses: [
          { type: 'InternalIP', address: control.address },
          { type: 'Hostname', address: control.name },
        ],
        osImage: 'Ubuntu 18.04.5 LTS',
        kernelVersion: '4.15.0-112-generic',
        containerRuntime: 'docker://19.3.5',
      });
    },
    newClusterState(LAB_CLUSTER),
  );
}

/** State, credentials, the API double running, and control1's kubectl wrapper and kubeconfig. */
export async function ensureCluster(
  labDir: string,
  stateFile: string,
  control: { name: string; address: string; namespace: string; optDir: string },
): Promise<void> {
  requireKubectl();
  ensureState(stateFile, control);
  const paths = clusterApiPaths(labDir);
  const credentials = ensureApiCredentials(paths.dir, [control.address]);
  const opt = (p: string) => join(control.optDir, p.replace(/^\/opt\//, ''));
  mkdirSync(dirname(opt(KUBECTL_PATH)), { recursive: true, mode: 0o755 });
  const server = `https://${control.address}:${API_PORT}`;
  writeIfChanged(opt(KUBECONFIG_PATH), kubeconfigText(server, credentials), 0o600);
  writeIfChanged(opt(KUBECTL_PATH), kubectlWrapper(), 0o755);
  rmSync(`${opt(KUBECTL_PATH)}.mjs`, { force: true }); // the TypeScript stand-in of labs made before
  const api = labApiProcess(labDir, stateFile, control);
  // A remade certificate or token is read only at the server's start. A new server may serve what the
  // old did not: kubectl's discovery cache (6 hours) must not hide it.
  if (runningApi(api) !== undefined && !credentials.made) return;
  rmSync(opt(CACHE_DIR), { recursive: true, force: true });
  await stopApi(api);
  await startApi(api);
}
