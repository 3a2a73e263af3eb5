// The simulated cluster in the lab (a TEST DOUBLE): `play lab up --control 1` makes its state file
// (with control1 as its master) and installs the kubectl stand-in on control1 as a shell wrapper in
// control1's private /opt, so playbooks run it over SSH as `{{ kubectl }}`.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildSync } from 'esbuild';
import { writeIfChanged } from '../write.js';
import { KUBECTL_PATH } from '../paths.js';
import { LAB_CLUSTER, newClusterState, registerNode, updateClusterState } from './cluster-state.js';

export const KUBECTL_MAIN = new URL('./kubectl.ts', import.meta.url).pathname;
/** Where the bundled stand-in lives on control1 (its private /opt). */
export const KUBECTL_BUNDLE = `${KUBECTL_PATH}.mjs`;

/**
 * The stand-in as one self-contained ES module. A lab host sees its own private /tmp, /srv and /opt,
 * so the project's files may not be visible there (a checkout under /tmp is not): the host gets a
 * bundle in its /opt instead of a path into the checkout.
 */
export function bundleKubectl(): string {
  const out = buildSync({
    entryPoints: [KUBECTL_MAIN],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    banner: {
      js: '// kubectl stand-in of the play lab (a test double), bundled from lab/cluster/kubectl.ts by `play lab up`.',
    },
  });
  return out.outputFiles[0]!.text;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function kubectlWrapper(stateFile: string, bundle = KUBECTL_BUNDLE, node = process.execPath): string {
  return [
    '#!/bin/sh',
    '# kubectl stand-in of the play lab (lab/cluster/kubectl.ts, a test double): written by `play lab up`.',
    `exec ${quote(node)} ${quote(bundle)} --state ${quote(stateFile)} "$@"`,
    '',
  ].join('\n');
}

/** Makes the cluster state when missing (control1 its master, first /24) and writes the wrapper under
 *  control1's private /opt source folder. */
export function ensureCluster(stateFile: string, control: { name: string; address: string; optDir: string }): void {
  updateClusterState(
    stateFile,
    (s) => {
      if (!s.nodes[control.name]) {
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
      }
    },
    newClusterState(LAB_CLUSTER),
  );
  const wrapper = join(control.optDir, KUBECTL_PATH.replace(/^\/opt\//, ''));
  mkdirSync(dirname(wrapper), { recursive: true, mode: 0o755 });
  writeIfChanged(`${wrapper}.mjs`, bundleKubectl(), 0o644);
  writeIfChanged(wrapper, kubectlWrapper(stateFile), 0o755);
}
