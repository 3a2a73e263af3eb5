// firewallRule({ name, displayName?, enabled?, direction?, protocol, localPort, action? }): a Windows
// Firewall rule (docs/field-notes.md#a-openssh-and-the-firewall: `New-NetFirewallRule -Name sshd -DisplayName 'OpenSSH Server
// (sshd)' -Enabled True -Direction Inbound -Protocol TCP -Action Allow -LocalPort 22`).
// Fields: displayName, enabled, direction, protocol, localPort, action (one write sets them all).
// localPort: a port, a range, several of them ('80,443', '8000-8100'), or 'Any'; compared as a
// set. Defaults: displayName = name, enabled true, direction Inbound, action Allow.
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { oneOf, readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { invoke, probeCall } from '../../remote/calls.js';
import { accepted, checked, type Refuse } from '../../options/checked.js';
import { textMatching, oneLine } from '../../options/win-options.js';
import type { FunctionResult } from '../step-remote.js';
import { FIREWALL_RULE_REMOTE as REMOTE } from './remote.js';

export type FirewallRuleActual = Readonly<
  Omit<NonNullable<FunctionResult<(typeof REMOTE)['Get-PlayFirewallRule']>>, 'name'>
>;

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

type Ports = string | number | readonly (string | number)[];

/** Ports, ranges and lists of them, joined with commas: '80,443,8000-8100', or 'Any'. */
function readPorts(v: Ports | undefined, refuse: Refuse): string {
  const list = Array.isArray(v) ? v : [v];
  if (v === undefined || list.length === 0)
    refuse("is required: a port, a range such as '8000-8100', a list, or 'Any'");
  const parts = list.flatMap((p) => (typeof p === 'string' ? p.split(',') : [p])).map((p) => String(p).trim());
  for (const p of parts) {
    if (p.toLowerCase() === 'any' && parts.length === 1) return 'Any';
    const m = /^([0-9]{1,5})(?:-([0-9]{1,5}))?$/.exec(p);
    const lo = m ? Number(m[1]) : NaN,
      hi = m?.[2] ? Number(m[2]) : lo;
    if (!m || lo < 1 || hi > 65535 || hi < lo)
      refuse(`has ${JSON.stringify(p)}, not a port (1-65535) or a range low-high`);
  }
  return parts.join(',');
}

const Options = checked(
  z.strictObject({
    name: textMatching(/^[^*?[\]\r\n\0]{1,255}$/, 'a rule name without wildcards (* ? [ ]) or line breaks'),
    displayName: oneLine(z.string()).optional(),
    enabled: z.boolean().default(true),
    direction: oneOf('Inbound', 'Outbound').default('Inbound'),
    protocol: z
      .custom<'TCP' | 'UDP' | 'tcp' | 'udp'>(() => true)
      .transform((v) => (typeof v === 'string' ? v.toUpperCase() : v))
      .pipe(
        accepted<'TCP' | 'UDP'>(
          (v) => v === 'TCP' || v === 'UDP',
          (v) => `must be 'TCP' or 'UDP' (the rules with ports), got ${JSON.stringify(v)}`,
        ),
      ),
    localPort: checked(
      z.custom<Ports>(() => true),
      readPorts,
    ),
    action: oneOf('Allow', 'Block').default('Allow'),
  }),
  // In the order of the rule's fields, with the display name defaulting to the name.
  ({ name, displayName, enabled, direction, protocol, localPort, action }) => ({
    name,
    displayName: displayName ?? name,
    enabled,
    direction,
    protocol,
    localPort,
    action,
  }),
);

export type FirewallRuleOptions = z.input<typeof Options>;
export type FirewallRuleDesired = Readonly<z.output<typeof Options>>;

function diffFirewallRule(d: Readonly<FirewallRuleDesired>, a: FirewallRuleActual | null): Change {
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
  const desired: FirewallRuleDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `firewall rule ${desired.name}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayFirewallRule'], { name: desired.name }, (rule) => rule),
    diff: diffFirewallRule,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(
      remote: Remote,
      change: Change,
      _actual: FirewallRuleActual | null,
      d: FirewallRuleDesired,
    ): Promise<void> {
      if (change.fields.length === 0) return;
      await invoke(remote, REMOTE['Set-PlayFirewallRule'], { ...d }, `${title}: set`);
    },
  });
}
