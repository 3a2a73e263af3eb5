// Windows Firewall rules as the NetSecurity cmdlets see them (mock/Firewall.psm1): a rule with its
// port filter (protocol, local ports). New and changed rules are checked as the firewall service
// checks them; protocol and port keywords are stored in Windows' spelling (tcp reads back as TCP).
import { sameName } from '../adapters.js';
import type { FirewallRuleRecord } from '../node-state.js';
import { bool, optStr, type Ops, str, strs, WindowsError } from './types.js';

const PORT_HELP =
  'The port is invalid. When Protocol is TCP or UDP, individual ports or ranges are allowed. Also, the following keywords are allowed on LocalPort: RPC, RPCEPMap, Any, IPHTTPSIn, PlayToDiscovery.';
const PROTOCOLS = ['TCP', 'UDP', 'Any', 'ICMPv4', 'ICMPv6'];

function protocolOf(text: string): string {
  const named = PROTOCOLS.find((p) => p.toLowerCase() === text.trim().toLowerCase());
  if (named) return named;
  if (/^\d{1,3}$/.test(text.trim()) && Number(text) <= 255) return String(Number(text));
  throw new WindowsError(
    'The protocol is invalid. Valid protocols are TCP, UDP, ICMPv4, ICMPv6, Any, or a number from 0 to 255.',
  );
}

/** LocalPort as the rule stores it (comma-joined, as the steps' functions read it back). */
function localPortOf(protocol: string, ports: readonly string[]): string {
  const list = ports.flatMap((p) => p.split(',')).map((p) => p.trim());
  if (list.length === 0 || (list.length === 1 && sameName(list[0]!, 'Any'))) return 'Any';
  if (protocol !== 'TCP' && protocol !== 'UDP') throw new WindowsError(PORT_HELP);
  for (const part of list) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    const lo = Number(m?.[1]);
    const hi = m?.[2] === undefined ? lo : Number(m[2]);
    if (!m || lo < 1 || hi > 65535 || lo > hi) throw new WindowsError(PORT_HELP);
  }
  return list.join(',');
}

function direction(text: string): FirewallRuleRecord['direction'] {
  if (text !== 'Inbound' && text !== 'Outbound') throw new Error(`direction ${text} (a bug in mock/Firewall.psm1)`);
  return text;
}

function action(text: string): FirewallRuleRecord['action'] {
  if (text !== 'Allow' && text !== 'Block') throw new WindowsError(`The firewall does not model the action ${text}.`);
  return text;
}

export const firewallOps: Ops = {
  'Firewall.List': (node) => Object.values(node.state.firewall).map((r) => ({ ...r })),

  /** New-NetFirewallRule: the mock passes every setting, its defaults filled in. */
  'Firewall.New': (node, a) => {
    const s = node.state;
    const name = str(a, 'name');
    if (s.firewall[name.toLowerCase()]) throw new WindowsError('Cannot create a file when that file already exists.');
    const protocol = protocolOf(str(a, 'protocol'));
    const rule: FirewallRuleRecord = {
      name,
      displayName: str(a, 'displayName'),
      enabled: bool(a, 'enabled'),
      direction: direction(str(a, 'direction')),
      protocol,
      localPort: localPortOf(protocol, strs(a, 'localPort')),
      action: action(str(a, 'action')),
    };
    s.firewall[name.toLowerCase()] = rule;
    return { ...rule };
  },

  /** Set-NetFirewallRule -Name: only what was passed changes; the result is checked as a whole. */
  'Firewall.Set': (node, a) => {
    const existing = node.state.firewall[str(a, 'name').toLowerCase()];
    if (!existing) throw new Error('Firewall.Set of a rule Firewall.List does not have (a bug in mock/Firewall.psm1)');
    const next = { ...existing };
    const text = (k: string) => optStr(a, k);
    if (text('displayName') !== null) next.displayName = text('displayName')!;
    if (a.enabled !== undefined && a.enabled !== null) next.enabled = bool(a, 'enabled');
    if (text('direction') !== null) next.direction = direction(text('direction')!);
    if (text('action') !== null) next.action = action(text('action')!);
    if (text('protocol') !== null) next.protocol = protocolOf(text('protocol')!);
    const ports = a.localPort === undefined || a.localPort === null ? [next.localPort] : strs(a, 'localPort');
    next.localPort = localPortOf(next.protocol, ports);
    node.state.firewall[existing.name.toLowerCase()] = next;
    return { ...next };
  },
};
