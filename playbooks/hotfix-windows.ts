// hotfix-windows: moves the Windows nodes to the pinned build (os_version, os_revision) by installing
// its cumulative update (hotfix_kb from hotfix_msu on the node, uploaded first from hotfix_msu_local on
// the controller when that var is set), a batch of nodes at a time, each
// cordoned and drained on the cluster's control host first and uncordoned once Ready again
// (docs/rolling.md). The same vars as onboard-windows: bumping the pin there is what starts a rollout.
//
// The tasks are only the node's part; the rolling run (runner/rolling/) adds the planning (a node
// already at the revision is never cordoned), the batches, the drain, the Ready gate and the journal.
import { definePlaybook } from '../runner/playbook/define.js';
import { intVar, optionalStringVar, stringVar } from '../runner/playbook/host-vars.js';
import { hotfix } from '../tasks/windows/hotfix.js';
import { osBuild } from '../tasks/windows/os-build.js';
import { reboot } from '../tasks/windows/reboot.js';
import { CONTROL_GROUP, WINDOWS_GROUP } from './shared/cluster.js';

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
  tasks: {
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
