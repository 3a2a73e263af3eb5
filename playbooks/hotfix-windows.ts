// hotfix-windows: moves the Windows nodes to the pinned build (os_version, os_revision) by installing
// its cumulative update (hotfix_kb from hotfix_msu on the node, uploaded first from hotfix_msu_local on
// the controller when that var is set), a batch of nodes at a time, each
// cordoned and drained on the cluster's control host first and uncordoned once Ready again
// (docs/rolling.md). The same vars as onboard-windows: bumping the pin there is what starts a rollout.
//
// `stage` is a staging task (stage: true): only `--stage` runs it (docs/rolling.md#staging).
// The tasks are only the node's part; the rolling run (runner/rolling/) adds the planning (a node
// already at the revision is never cordoned), the batches, the drain, the Ready gate, the pod-network gate
// and the journal.
import { definePlaybook, intVar, optionalStringVar, stringVar } from '../runner/index.js';
import { hotfix, hotfixStage, osBuild, podNetworkGate, reboot } from '../tasks/windows/index.js';
import { CONTROL_GROUP, WINDOWS_GROUP } from './shared/cluster.js';
import { TOR_GROUP } from './shared/tor-gateway.js';
import { ENDPOINT, NETWORK, podAddresses } from './onboard/node-values.js';

export default definePlaybook({
  name: 'hotfix-windows',
  description:
    'rolling hotfix upgrade of the Windows nodes to the pinned build: drain, install, reboot, Ready, uncordon, a batch at a time',
  rolling: {
    // A canary first, then half of the rest at a time.
    serial: [1, '50%'],
    maxFail: 0,
    control: CONTROL_GROUP,
  },
  // After Ready, before uncordon: the pod network onboard-windows built is still there (HNS network and
  // endpoint on the node's pod CIDR, kubelet and kube-proxy running, the gateway VIP on a tor host).
  gate: podNetworkGate({
    network: NETWORK,
    endpoint: ENDPOINT,
    addresses: podAddresses,
    adapter: (host) => stringVar(host, 'cluster_adapter', 'eth1'),
    services: ['kubelet', 'kubeproxy'],
    vipGroup: TOR_GROUP,
  }),
  tasks: {
    // `play hotfix-windows --stage`, ahead of the window: the .msu sent, expanded and verified by DISM on
    // each node that needs the update, never cordoned; the run in the window then finds it (no upload).
    stage: {
      on: WINDOWS_GROUP,
      stage: true,
      tags: ['hotfix'],
      description:
        'stage the cumulative update ahead of the window: the .msu uploaded (from hotfix_msu_local, when set), expanded and verified by DISM',
      timeoutSec: 1800,
      step: ({ host }) => {
        const localMsu = optionalStringVar(host, 'hotfix_msu_local');
        return hotfixStage({
          kb: stringVar(host, 'hotfix_kb'),
          msuPath: stringVar(host, 'hotfix_msu'),
          ...(localMsu === undefined ? {} : { localMsu }),
        });
      },
    },
    hotfix: {
      on: WINDOWS_GROUP,
      tags: ['hotfix'],
      description:
        'the cumulative update of the pinned build (hotfix_kb, from hotfix_msu on the node; uploaded there from hotfix_msu_local first, when set), by DISM',
      timeoutSec: 1800,
      step: ({ host }) => {
        const localMsu = optionalStringVar(host, 'hotfix_msu_local');
        return hotfix({
          kb: stringVar(host, 'hotfix_kb'),
          msuPath: stringVar(host, 'hotfix_msu'),
          ...(localMsu === undefined ? {} : { localMsu }),
        });
      },
    },
  },
}).andThen({
  reboot: {
    on: WINDOWS_GROUP,
    tags: ['hotfix', 'reboot'],
    needs: ['hotfix'],
    description: 'reboot when the update asks for it (or a reboot is pending), and wait until the node is back',
    timeoutSec: 900,
    step: ({ output }) => reboot({ required: output('hotfix').rebootRequired, ifPending: true, timeoutSec: 600 }),
  },
  osBuild: {
    on: WINDOWS_GROUP,
    tags: ['hotfix'],
    needs: ['reboot'],
    description: 'the node runs the pinned build (os_version, os_revision)',
    step: ({ host }) =>
      osBuild({ version: stringVar(host, 'os_version'), revision: intVar(host, 'os_revision', undefined, 0, 99999) }),
  },
});
