// firewallRule({ name, displayName?, enabled?, direction?, protocol, localPort, action? }): a Windows
// Firewall rule (docs/field-notes.md#a-openssh-and-the-firewall: `New-NetFirewallRule -Name sshd -DisplayName 'OpenSSH Server
// (sshd)' -Enabled True -Direction Inbound -Protocol TCP -Action Allow -LocalPort 22`).
// Fields: displayName, enabled, direction, protocol, localPort, action (one write sets them all).
// localPort: a port, a range, several of them ('80,443', '8000-8100'), or 'Any'; compared as a
// set. Defaults: displayName = name, enabled true, direction Inbound, action Allow.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_FIREWALL_RULE, SET_FIREWALL_RULE } from './remote/ps-system.js';
import { matching, oneLine } from './options/win-options.js';

export type FirewallRuleOptions = {
  name: string;
  displayName?: string;
  enabled?: boolean;
  direction?: 'Inbound' | 'Outbound';
  protocol: 'TCP' | 'UDP';
  localPort: string | number | readonly (string | number)[];
  action?: 'Allow' | 'Block';
};

export interface FirewallRuleDesired {
  readonly name: string;
  readonly displayName: string;
  readonly enabled: boolean;
  readonly direction: 'Inbound' | 'Outbound';
  readonly protocol: 'TCP' | 'UDP';
  readonly localPort: string;
  readonly action: 'Allow' | 'Block';
}

export type FirewallRuleActual = Readonly<Omit<NonNullable<ResultOf<'Get-PlayFirewallRule'>>, 'name'>>;

const KIND = 'windows.firewallRule';
const FIELDS = ['displayName', 'enabled', 'direction', 'protocol', 'localPort', 'action'] as const;

function portSet(text: string): string {
  return [
    ...new Set(
      text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map((p) => p.toLowerCase()),
    ),
  ]
    .sort()
    .join(',');
}

function readPorts(r: OptionReader): string {
  const v = r.opts.localPort;
  const list = Array.isArray(v) ? v : [v];
  if (v === undefined || list.length === 0)
    r.fail('localPort', "is required: a port, a range such as '8000-8100', a list, or 'Any'");
  const parts = list.flatMap((p) => (typeof p === 'string' ? p.split(',') : [p])).map((p) => String(p).trim());
  for (const p of parts) {
    if (p.toLowerCase() === 'any' && parts.length === 1) return 'Any';
    const m = /^([0-9]{1,5})(?:-([0-9]{1,5}))?$/.exec(p);
    const lo = m ? Number(m[1]) : NaN,
      hi = m?.[2] ? Number(m[2]) : lo;
    if (!m || lo < 1 || hi > 65535 || hi < lo)
      r.fail('localPort', `has ${JSON.stringify(p)}, not a port (1-65535) or a range low-high`);
  }
  return parts.join(',');
}

export function diffFirewallRule(d: Readonly<FirewallRuleDesired>, a: FirewallRuleActual | null): Change {
  const after: Fields = Object.fromEntries(FIELDS.map((f) => [f, d[f]]));
  if (a === null) return { action: 'create', fields: [...FIELDS], before: null, after };
  const changed = FIELDS.filter((f) => {
    if (f === 'localPort') return portSet(d.localPort) !== portSet(a.localPort);
    if (f === 'protocol') return d.protocol.toUpperCase() !== a.protocol.toUpperCase();
    return d[f] !== a[f];
  });
  if (changed.length === 0) return NOOP;
  return {
    action: 'update',
    fields: changed,
    before: Object.fromEntries(changed.map((f) => [f, a[f]])),
    after: Object.fromEntries(changed.map((f) => [f, d[f]])),
  };
}

export function firewallRule(options: FirewallRuleOptions): Step<FirewallRuleDesired, FirewallRuleActual> {
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['name', 'displayName', 'enabled', 'direction', 'protocol', 'localPort', 'action']);
  const name = matching(r, 'name', /^[^*?[\]\r\n\0]{1,255}$/, 'a rule name without wildcards (* ? [ ]) or line breaks');
  const displayName = oneLine(r, 'displayName', 'optional') ?? name;
  const direction = r.opts.direction ?? 'Inbound';
  if (direction !== 'Inbound' && direction !== 'Outbound')
    r.fail('direction', `must be 'Inbound' or 'Outbound', got ${JSON.stringify(direction)}`);
  const protocol = typeof r.opts.protocol === 'string' ? r.opts.protocol.toUpperCase() : r.opts.protocol;
  if (protocol !== 'TCP' && protocol !== 'UDP')
    r.fail('protocol', `must be 'TCP' or 'UDP' (the rules with ports), got ${JSON.stringify(r.opts.protocol)}`);
  const action = r.opts.action ?? 'Allow';
  if (action !== 'Allow' && action !== 'Block')
    r.fail('action', `must be 'Allow' or 'Block', got ${JSON.stringify(action)}`);
  const desired: FirewallRuleDesired = Object.freeze({
    name,
    displayName,
    enabled: r.boolean('enabled', true),
    direction,
    protocol,
    localPort: readPorts(r),
    action,
  });
  const title = `firewall rule ${name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_FIREWALL_RULE, { name }, (rule) => rule),
    diff: diffFirewallRule,
    async apply(remote: Remote, change: Change): Promise<void> {
      if (change.fields.length === 0) return;
      const { displayName: dn, enabled, localPort } = desired;
      await invoke(
        remote,
        SET_FIREWALL_RULE,
        { name, displayName: dn, enabled, direction, protocol, localPort, action },
        `${title}: set`,
      );
    },
  });
}
