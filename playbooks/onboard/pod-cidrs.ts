// The pod CIDRs the tor hosts serve during an onboarding: every Windows node the cluster knows, read
// on a master, plus this run's registrations. Pure: computed from task outputs and the inventory.
import { type TaskContext, UnknownOutput } from '../../runner/index.js';
import type { KubectlNodeRegisteredOutputs, KubectlValueOutputs } from '../../tasks/linux/index.js';
import { windowsNodeCidrs } from '../shared/cluster.js';
import { NODE_GROUP } from '../shared/tor-gateway.js';

/**
 * The pod CIDRs the tor hosts must serve: every Windows node of the inventory that the cluster knows
 * (read on the control host after this node registered, so onboarding one node never drops the VIP
 * of a node onboarded earlier), and the nodes registered in this run as far as already known. Whichever
 * node's config is written last on a tor host has seen every registration of the run before it.
 */
export function registeredPodCidrs(
  ctx: TaskContext<{ register: KubectlNodeRegisteredOutputs; clusterNodes: KubectlValueOutputs }>,
): Record<string, string> {
  const cidrs = windowsNodeCidrs(ctx.inventory, ctx.output('clusterNodes').value);
  cidrs[ctx.host.name] = ctx.output('register').podCidr;
  for (const h of ctx.inventory) {
    if (h.name === ctx.host.name || !h.groups.includes(NODE_GROUP)) continue;
    try {
      cidrs[h.name] = ctx.output('register', h.name).podCidr;
    } catch (e) {
      if (!(e instanceof UnknownOutput)) throw e;
    }
  }
  return cidrs;
}
