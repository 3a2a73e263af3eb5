// windows.firewallRule (this folder): its option errors and normalization, its diff table, and its
// three runs against the simulated node (the NetSecurity cmdlets are part of the node's shared
// Windows surface, lab/windows/pwsh-host/mock/Firewall.psm1).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { SSHD_FIREWALL_RULE, SSHD_FIREWALL_RULE_ON_NODE } from '../../../../test/helpers/windows-fixtures.js';
import { type FirewallRuleActual, firewallRule } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    { options: { name: 'ssh*', protocol: 'TCP', localPort: 22 }, field: 'name', message: /without wildcards/ },
    { options: { name: 'sshd', protocol: 'ICMP', localPort: 22 }, field: 'protocol', message: /'TCP' or 'UDP'/ },
    { options: { name: 'sshd', protocol: 'TCP', localPort: '70000' }, field: 'localPort', message: /not a port/ },
    { options: { name: 'sshd', protocol: 'TCP', localPort: '90-80' }, field: 'localPort', message: /not a port/ },
    { options: { name: 'sshd', protocol: 'TCP' }, field: 'localPort', message: /is required/ },
  ];
  for (const r of rows) {
    const e = t.throws(() => firewallRule(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.firewallRule', field: r.field });
    t.regex(e!.message, r.message);
    t.true(e!.message.startsWith(`windows.firewallRule: option '${r.field}' `), e!.message);
  }
});

test('normalization: protocol upper-cased, ports joined, defaults', (t) => {
  t.deepEqual(firewallRule({ name: 'sshd', protocol: 'tcp' as 'TCP', localPort: ['80', 443] }).desired, {
    name: 'sshd',
    displayName: 'sshd',
    enabled: true,
    direction: 'Inbound',
    protocol: 'TCP',
    localPort: '80,443',
    action: 'Allow',
  });
});

test('diff: the same ports in another order and case, a rule disabled by hand', (t) => {
  const rows: { name: string; step: ReturnType<typeof firewallRule>; actual: FirewallRuleActual; expect: Change }[] = [
    {
      name: 'firewall same ports, other order and case',
      step: firewallRule({ name: 'web', protocol: 'TCP', localPort: '443,80' }),
      actual: {
        displayName: 'web',
        enabled: true,
        direction: 'Inbound',
        protocol: 'tcp',
        localPort: '80,443',
        action: 'Allow',
      },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
    {
      name: 'firewall disabled',
      step: firewallRule({ name: 'web', protocol: 'TCP', localPort: 80 }),
      actual: {
        displayName: 'web',
        enabled: false,
        direction: 'Inbound',
        protocol: 'TCP',
        localPort: '80',
        action: 'Allow',
      },
      expect: { action: 'update', fields: ['enabled'], before: { enabled: false }, after: { enabled: true } },
    },
  ];
  t.deepEqual(
    rows.map((r) => ({ name: r.name, change: r.step.diff(r.step.desired, r.actual) })),
    rows.map((r) => ({ name: r.name, change: r.expect })),
  );
});

test('three runs on a simulated node: the rule made, then nothing to do', async (t) => {
  const { node, n } = simulatedNode(t);
  const runs = await threeRuns(n, firewallRule(SSHD_FIREWALL_RULE));
  const rule = SSHD_FIREWALL_RULE_ON_NODE;
  t.deepEqual(runs.first, { action: 'create', fields: Object.keys(rule), before: null, after: rule });
  t.deepEqual(node.state.firewall['sshd'], { name: 'sshd', ...rule });
});
