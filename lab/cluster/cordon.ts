// kubectl cordon / uncordon against the simulated cluster (lab/cluster/, a TEST DOUBLE): the node's
// spec.unschedulable, kubectl's texts ("node/X cordoned", "node/X already cordoned", "node/X uncordoned"),
// and an event for every call, changed or not. Uncordoning may let Pending pods be scheduled.
import { notFound, oneNode, type KubectlResult, type Parsed } from './args.js';
import { updateClusterState } from './cluster-state.js';
import { appendEvents, type EventActor } from './events.js';
import { schedulePending } from './pods.js';

/** Sets the node's cordon; true when it changed. Records the event under the state's lock. */
export function setCordon(file: string, name: string, cordon: boolean, who: EventActor): boolean {
  return updateClusterState(file, (s) => {
    const n = s.nodes[name];
    if (!n) throw notFound('nodes', name);
    const changed = n.unschedulable !== cordon;
    if (changed) {
      n.unschedulable = cordon;
      n.updatedAt = new Date().toISOString();
    }
    if (!cordon) schedulePending(s);
    appendEvents(file, s, who, [{ kind: cordon ? 'cordon' : 'uncordon', node: name, changed }]);
    return changed;
  });
}

export function cordonCommand(file: string, p: Parsed, verb: 'cordon' | 'uncordon', who: EventActor): KubectlResult {
  const name = oneNode(p, verb);
  const changed = setCordon(file, name, verb === 'cordon', who);
  return { code: 0, stdout: `node/${name} ${changed ? '' : 'already '}${verb}ed\n`, stderr: '' };
}
