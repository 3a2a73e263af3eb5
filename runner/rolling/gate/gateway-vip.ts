// The gate check that a node's pod gateway answers: its VIP (keepalived VRRP, playbooks/tor-gateway.ts)
// is held by exactly one host of the ToR group. Probed with `ip -o -4 addr show` on every host of the
// group (read-only); judged here, purely. Two holders at once is a split VRRP group (both answer ARP
// for the gateway), not a working gateway.
import { sh } from '../../core/quote.js';
import type { ExecResult, Probe } from '../../core/step.js';
import type { CheckResult, GateCheck, GateTarget, Seen } from './model.js';
import { cannotCheck } from './verdict.js';

/** The IPv4 addresses of `ip -o -4 addr show` (`2: eth1    inet 10.160.11.1/24 brd ... eth1:1`), without prefixes. */
export function parseAddresses(stdout: string): string[] {
  return [...stdout.matchAll(/\binet (\d+\.\d+\.\d+\.\d+)\/\d+/g)].map((m) => m[1]!);
}

const addressProbe = (): Probe<string[]> => ({
  script: sh`ip -o -4 addr show`,
  parse: (r: ExecResult) => {
    if (r.code !== 0) throw new Error(`ip -o -4 addr show exited ${r.code}: ${r.stderr.trim().slice(0, 200)}`);
    return parseAddresses(r.stdout);
  },
});

/** Pure: who holds `vip` among the group's answers. */
export function judgeVip(check: string, vip: string, group: string, seen: readonly Seen<string[]>[]): CheckResult {
  const what = `gateway VIP ${vip}`;
  if (seen.length === 0)
    return { check, ok: true, text: `${what} not checked: no host of group ${group} in the inventory` };
  const holders = seen.filter((s) => s.ok && (s.actual ?? []).includes(vip)).map((s) => s.host);
  const silent = seen.filter((s) => !s.ok).map((s) => s.host);
  const unanswered = silent.length ? ` (${silent.join(', ')} did not answer)` : '';
  if (holders.length === 1) return { check, ok: true, text: `${what} on ${holders[0]}${unanswered}` };
  if (holders.length > 1)
    return { check, ok: false, text: `${what} held by ${holders.join(' and ')} at once (a split VRRP group)` };
  if (silent.length === seen.length) {
    const first = seen[0]!;
    return cannotCheck(check, `no host of group ${group} answered (${first.host}: ${first.ok ? '' : first.error})`);
  }
  return {
    check,
    ok: false,
    text: `${what} held by no host of group ${group} (${seen.map((s) => s.host).join(', ')})${unanswered}`,
  };
}

/** The check, for the gateway address the target's pod CIDR gives it (`vipOf`). */
export function gatewayVipCheck(group: string, vipOf: (t: GateTarget) => string): GateCheck<string[]> {
  const name = 'gateway VIP';
  return {
    name,
    on: { group },
    probe: (t) => {
      vipOf(t); // a target without a pod CIDR cannot be checked: say so rather than look
      return addressProbe();
    },
    judge: (t, seen) => judgeVip(name, vipOf(t), group, seen),
  };
}
