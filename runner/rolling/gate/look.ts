// One look of a gate at a node: the node's pod CIDR from the cluster, every check's probe on the hosts
// it runs on (a host's probes in one round trip), and the checks' pure judges. Nothing here changes a
// host. The I/O comes in through GateIo (session-io.ts over SSH; a test may give its own).
import type { Probe } from '../../core/step.js';
import type { HostView } from '../../playbook/define.js';
import type { GateCheck, GateTarget, GateVerdict, RollingGate, Seen } from './model.js';
import { cannotCheck, gateVerdict } from './verdict.js';

export type ProbeAnswer = { ok: true; actual: unknown } | { ok: false; error: Error };

export interface GateIo {
  /** The node's spec.podCIDR, read on the control host (null: it has none). */
  podCidr(node: string): Promise<string | null>;
  /** The names of the inventory's hosts of a group, in inventory order (none: an empty list). */
  groupHosts(group: string): readonly string[];
  /** The probes on one host, in as few round trips as their kinds allow: one answer per probe. */
  probe(host: string, probes: readonly Probe<unknown>[]): Promise<ProbeAnswer[]>;
}

/** The gate as the node cycle runs it: one look at a host's node. */
export interface NodeGate {
  readonly name: string;
  readonly withinSec: number;
  look(host: string): Promise<GateVerdict>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

type Planned =
  | { check: GateCheck; hosts: readonly string[]; probe: Probe<unknown> }
  | { check: GateCheck; error: string };

function plan(checks: readonly GateCheck[], t: GateTarget, io: GateIo): Planned[] {
  return checks.map((check) => {
    try {
      const hosts = check.on === 'node' ? [t.host.name] : io.groupHosts(check.on.group);
      return { check, hosts, probe: check.probe(t) };
    } catch (e) {
      return { check, error: message(e) };
    }
  });
}

/** Every planned probe, run host by host (hosts at once); answers keyed by check index and host. */
async function probeAll(planned: readonly Planned[], io: GateIo): Promise<Map<string, ProbeAnswer>> {
  const byHost = new Map<string, { key: string; probe: Probe<unknown> }[]>();
  planned.forEach((p, i) => {
    if (!('probe' in p)) return;
    for (const h of p.hosts) {
      const list = byHost.get(h) ?? [];
      list.push({ key: `${i}@${h}`, probe: p.probe });
      byHost.set(h, list);
    }
  });
  const answers = new Map<string, ProbeAnswer>();
  await Promise.all(
    [...byHost].map(async ([host, list]) => {
      const got = await io
        .probe(
          host,
          list.map((x) => x.probe),
        )
        .catch((e: unknown) => list.map((): ProbeAnswer => ({ ok: false, error: new Error(message(e)) })));
      for (const [k, x] of list.entries()) answers.set(x.key, got[k] ?? { ok: false, error: new Error('no answer') });
    }),
  );
  return answers;
}

export async function lookOnce(
  gate: RollingGate,
  target: Omit<GateTarget, 'podCidr'>,
  io: GateIo,
): Promise<GateVerdict> {
  const t: GateTarget = { ...target, podCidr: await io.podCidr(target.node) };
  const planned = plan(gate.checks, t, io);
  const answers = await probeAll(planned, io);
  const results = planned.map((p, i) => {
    if (!('probe' in p)) return cannotCheck(p.check.name, p.error);
    const seen: Seen<unknown>[] = p.hosts.map((host) => {
      const a = answers.get(`${i}@${host}`)!;
      return a.ok ? { host, ok: true, actual: a.actual } : { host, ok: false, error: a.error.message };
    });
    return p.check.judge(t, seen);
  });
  return gateVerdict(gate.name, results);
}

/** The playbook's gate bound to the run's hosts: `target` gives a host's view and its node name. */
export function nodeGate(
  gate: RollingGate,
  io: GateIo,
  target: (host: string) => { host: HostView; node: string },
): NodeGate {
  return { name: gate.name, withinSec: gate.withinSec, look: (host) => lookOnce(gate, target(host), io) };
}
