// A drift run with one of everything the reports must show (runner/drift/report/): new, persisting,
// resolved, waived and expired-waiver items, an unknown with its reason, a text diff, a changed
// secret (masked on both sides), a delegated task, an unreachable and a failed host, a playbook not
// checked, and hostile strings (markup, quotes, pipes, backticks, newlines, a control character, URLs)
// in names and values.
import { readFileSync } from 'node:fs';
import type { Checked } from '../../runner/drift/report/junit.js';
import { countItems, type DriftItem, type DriftRun, driftExit, type HostProblem } from '../../runner/drift/model.js';

export const HOSTILE_TASK = `motd <b>&"quoted"'s | pipe`;
export const HOSTILE_VALUE = `a|b \`tick\` <script>alert("x")</script> & 'q'\nsecond line`;
export const HOSTILE_URL_VALUE = '<img src=https://example.invalid/x.png>';

const item = (i: Partial<DriftItem> & Pick<DriftItem, 'host' | 'playbook' | 'task'>): DriftItem => ({
  kind: null,
  title: null,
  action: 'update',
  fields: [],
  before: null,
  after: null,
  status: 'new',
  firstSeen: '2024-05-02T10:00:00.000Z',
  ...i,
});

// Deliberately not in report order: the renderers order by group, host and playbook (the JSON
// keeps the run's order).
export function fixtureItems(): DriftItem[] {
  return [...someItems(), ...moreItems()];
}

function someItems(): DriftItem[] {
  return [
    item({
      host: 'tor1',
      playbook: 'tor-gateway',
      task: 'ip forwarding',
      kind: 'linux.sysctl',
      title: 'net.ipv4.ip_forward',
      fields: ['value'],
      before: { value: '0' },
      after: { value: '1' },
      status: 'resolved',
      firstSeen: '2024-04-30T09:00:00.000Z',
    }),
    item({
      host: 'node009',
      playbook: 'onboard-windows',
      task: 'w32time running',
      kind: 'windows.service',
      title: 'service w32time',
      fields: ['state'],
      before: { state: 'Stopped' },
      after: { state: 'Running' },
      status: 'persisting',
      firstSeen: '2024-05-01T08:00:00.000Z',
    }),
    item({
      host: 'tor2',
      playbook: 'tor-gateway',
      task: 'keepalived config',
      kind: 'linux.file',
      title: '/etc/keepalived/keepalived.conf',
      fields: ['content'],
      before: { content: '(623 bytes)' },
      after: { content: '(623 bytes)' },
      textDiff: [
        '--- /etc/keepalived/keepalived.conf (actual)',
        '+++ /etc/keepalived/keepalived.conf (desired)',
        '@@ -3,3 +3,3 @@',
        '   state BACKUP',
        '-  priority 150',
        '+  priority 100',
        '   auth_pass ********',
        '',
      ].join('\n'),
    }),
    item({
      host: 'node010',
      playbook: 'onboard-windows',
      task: 'kubelet service',
      kind: 'windows.service',
      title: 'service kubelet',
      fields: ['binPath'],
      before: { binPath: 'C:\\k\\kubelet.exe --v=4 --node-ip=10.1.0.10 --max-pods=250' },
      after: { binPath: 'C:\\k\\kubelet.exe --v=2 --node-ip=10.1.0.10' },
    }),
  ];
}

function moreItems(): DriftItem[] {
  return [
    item({
      host: 'node010',
      playbook: 'onboard-windows',
      task: 'hotfix KB5034439',
      kind: 'windows.hotfix',
      title: 'KB5034439',
      action: 'create',
      status: 'persisting',
      firstSeen: '2024-04-28T10:00:00.000Z',
      waiver: {
        reason: 'vendor image ships without it; CHG-1234',
        expires: '2099-12-31',
        expired: false,
        source: 'inventory/waivers.yaml:4',
      },
    }),
    item({
      host: 'node009',
      playbook: 'onboard-windows',
      task: 'dns suffix',
      kind: 'windows.dns',
      title: 'suffix search list',
      fields: ['suffixes'],
      before: { suffixes: ['corp.example'] },
      after: { suffixes: ['corp.example', 'k8s.example'] },
      status: 'persisting',
      firstSeen: '2024-04-20T10:00:00.000Z',
      waiver: { reason: 'migration pending', expires: '2024-04-30', expired: true, source: 'inventory/waivers.yaml:9' },
    }),
    item({
      host: 'tor2',
      playbook: 'tor-gateway',
      task: 'keepalived running',
      kind: 'linux.service',
      title: 'service keepalived',
      action: 'unknown',
      unknownReason: 'systemctl is-active timed out after 10 s',
    }),
    item({
      host: 'node010',
      playbook: 'onboard-windows',
      task: 'kubeconfig',
      kind: 'windows.file',
      title: 'C:\\k\\config',
      fields: ['token'],
      before: { token: '********' },
      after: { token: '********' },
    }),
    item({
      host: 'tor2',
      playbook: 'tor-gateway',
      task: HOSTILE_TASK,
      target: 'node009',
      kind: 'linux.line',
      title: '/etc/motd',
      fields: ['line|1', 'banner'],
      before: { 'line|1': HOSTILE_VALUE, banner: 'x\u001by ]]> https://example.invalid/p.png' },
      after: { 'line|1': '********', banner: HOSTILE_URL_VALUE },
      textDiff: '--- a\n+++ b\n@@ -1 +1 @@\n-<script>alert(1)</script> ```\n+& "ok" \'x\' | y\n',
    }),
  ];
}

export function fixtureProblems(): HostProblem[] {
  return [
    { host: 'tor3', kind: 'unreachable', message: 'ssh: connect ECONNREFUSED 10.0.0.3:22' },
    {
      host: 'node011',
      kind: 'failed',
      playbook: 'onboard-windows',
      task: 'hotfix KB5034439',
      message: 'Get-HotFix exited 1: <Access denied> & "retry"\nat line 2',
    },
  ];
}

export function fixtureRun(): DriftRun {
  const items = fixtureItems();
  const problems = fixtureProblems();
  const counts = countItems(items, problems);
  return {
    id: 12,
    startedAt: '2024-05-02T10:00:00.000Z',
    durationMs: 4210,
    playbooks: ['tor-gateway', 'onboard-windows'],
    skipped: [
      {
        playbook: 'hotfix-windows',
        reason: 'no host in group control (task \'cordon\' runs there: <kubectl> & "drain"); add one to the inventory',
      },
    ],
    inventory: 'inventory/lab.yaml',
    hosts: ['tor1', 'tor2', 'tor3', 'node009', 'node010', 'node011'],
    items,
    problems,
    counts,
    exitCode: driftExit(counts),
    warnings: [
      'waiver inventory/waivers.yaml:12 (tor* tor-gateway/ntp) matches nothing',
      'waiver inventory/waivers.yaml:9 (node009 onboard-windows/dns suffix) expired on 2024-04-30',
    ],
  };
}

/** What the run judged, in plan order, with one duplicate: a testcase per host x task. */
export function fixtureChecked(): Checked[] {
  const t = (host: string, playbook: string, task: string, target?: string): Checked =>
    target ? { host, playbook, task, target } : { host, playbook, task };
  return [
    t('tor1', 'tor-gateway', 'keepalived config'),
    t('tor1', 'tor-gateway', 'keepalived running'),
    t('tor1', 'tor-gateway', 'ip forwarding'),
    t('tor2', 'tor-gateway', 'keepalived config'),
    t('tor2', 'tor-gateway', 'keepalived running'),
    t('tor2', 'tor-gateway', 'ip forwarding'),
    t('tor2', 'tor-gateway', HOSTILE_TASK, 'node009'),
    t('node009', 'onboard-windows', 'w32time running'),
    t('node009', 'onboard-windows', 'dns suffix'),
    t('node009', 'onboard-windows', 'kubelet service'),
    t('node010', 'onboard-windows', 'kubelet service'),
    t('node010', 'onboard-windows', 'kubeconfig'),
    t('node010', 'onboard-windows', 'kubelet service'),
  ];
}

/** The smallest run: nothing targeted drifted, nothing failed. */
export function emptyRun(): DriftRun {
  const counts = countItems([], []);
  return {
    id: 1,
    startedAt: '2024-05-01T00:00:00.000Z',
    durationMs: 812,
    playbooks: ['tor-gateway'],
    inventory: 'lab',
    hosts: ['tor1', 'tor2'],
    items: [],
    problems: [],
    counts,
    exitCode: driftExit(counts),
    warnings: [],
  };
}

/** The expected output of a renderer for the fixture run (test/drift/expected/, reviewed by hand). */
export function expected(name: string): string {
  return readFileSync(new URL(`./expected/${name}`, import.meta.url), 'utf8');
}
