// A gate's I/O over the run's SSH connections: probes through a HostSession per look (its probes in one
// round trip; the pool keeps the connection, and reopens one a reboot dropped), and the node's pod CIDR
// read with kubectl on the control host (the kubectl fact step's own probe: read-only).
import type { Probe } from '../../core/step.js';
import type { Host, Inventory } from '../../inventory/model.js';
import { selectHosts } from '../../inventory/pattern.js';
import { hostView } from '../../run/context.js';
import { type Connect, HostSession } from '../../run/host-session.js';
import { kubectlValue } from '../../../tasks/linux/kubectl-fact.js';
import { type GateIo, type NodeGate, nodeGate, type ProbeAnswer } from './look.js';
import type { RollingGate } from './model.js';

export interface SessionGateIoOptions {
  readonly inventory: Inventory;
  readonly control: { readonly host: Host; readonly kubectl: string };
  readonly connect: Connect;
  /** A look's probes on one host give up after this long. */
  readonly timeoutMs: number;
}

export function sessionGateIo(o: SessionGateIoOptions): GateIo {
  const byName = new Map(o.inventory.hosts.map((h) => [h.name, h]));
  const probe = async (name: string, probes: readonly Probe<unknown>[]): Promise<ProbeAnswer[]> => {
    const host = byName.get(name);
    if (!host) throw new Error(`${name} is not in the inventory`);
    return new HostSession(host, o.connect).probe(probes, o.timeoutMs);
  };
  return {
    async podCidr(node) {
      const fact = kubectlValue({
        kubectl: o.control.kubectl,
        args: ['get', 'node', node, '-o', 'jsonpath={.spec.podCIDR}'],
      });
      const [answer] = await probe(o.control.host.name, [fact.probe()]);
      if (!answer?.ok) throw answer?.error ?? new Error(`kubectl get node ${node}: no answer`);
      const value = (answer.actual as { value: string } | null)?.value.trim() ?? '';
      return value === '' ? null : value;
    },
    groupHosts: (group) => {
      try {
        return selectHosts(o.inventory, group).map((h) => h.name);
      } catch {
        return []; // a group the inventory does not have: nothing to look at
      }
    },
    probe,
  };
}

/** The playbook's gate bound to this run's hosts and connections (null: the playbook declares none). */
export function runGateOf(
  gate: RollingGate | undefined,
  o: SessionGateIoOptions & {
    readonly extraVars: Readonly<Record<string, unknown>>;
    nodeName(host: Host): string;
  },
): NodeGate | null {
  if (!gate) return null;
  const byName = new Map(o.inventory.hosts.map((h) => [h.name, h]));
  return nodeGate(gate, sessionGateIo(o), (name) => {
    const host = byName.get(name);
    if (!host) throw new Error(`${name} is not in the inventory`);
    return { host: hostView(host, o.extraVars), node: o.nodeName(host) };
  });
}
