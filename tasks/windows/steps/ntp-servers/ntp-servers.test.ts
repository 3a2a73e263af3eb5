// windows.ntpServers (this folder): its option errors, its diff table, and its three runs against
// the simulated node (the DateTime\Servers values, W32Time and w32tm.exe are part of the node's
// shared Windows surface).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { type NtpActual, ntpServers } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    { options: { servers: [] }, field: 'servers', message: /at least one/ },
    { options: { servers: ['ntp1', 'a b'] }, field: 'servers[1]', message: /host name or IPv4/ },
    { options: { servers: ['ntp1', 'NTP1'] }, field: 'servers[1]', message: /repeats NTP1/ },
  ];
  for (const r of rows) {
    const e = t.throws(() => ntpServers(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.ntpServers', field: r.field });
    t.regex(e!.message, r.message);
    t.true(e!.message.startsWith(`windows.ntpServers: option '${r.field}' `), e!.message);
  }
});

const NTP: NtpActual = {
  servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'],
  defaultIndex: '1',
  manualPeerList: 'ntp1.mylan.k8s ntp2.mylan.k8s',
  syncFromFlags: 'NTP',
  w32timeStartMode: 'Auto',
  w32timeRunning: true,
};

test('diff: converged, peers with flags, domain sync with the default missing, w32time stopped by hand', (t) => {
  const step = ntpServers({ servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'] });
  const rows: { name: string; actual: NtpActual; expect: Change }[] = [
    { name: 'converged', actual: NTP, expect: { action: 'noop', fields: [], before: null, after: null } },
    {
      name: 'peers with flags are the same peers',
      actual: { ...NTP, manualPeerList: 'ntp1.mylan.k8s,0x9 ntp2.mylan.k8s,0x9' },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
    {
      name: 'domain sync, default missing',
      actual: { ...NTP, defaultIndex: null, syncFromFlags: 'NT5DS' },
      expect: {
        action: 'update',
        fields: ['default', 'peers'],
        before: { default: null, peers: 'ntp1.mylan.k8s ntp2.mylan.k8s, type NT5DS' },
        after: { default: '1', peers: 'ntp1.mylan.k8s ntp2.mylan.k8s, type NTP (syncfromflags:MANUAL)' },
      },
    },
    {
      name: 'w32time stopped by hand',
      actual: { ...NTP, w32timeRunning: false },
      expect: {
        action: 'update',
        fields: ['w32time'],
        before: { w32time: 'Auto, stopped' },
        after: { w32time: 'Auto, running' },
      },
    },
  ];
  t.deepEqual(
    rows.map((r) => ({ name: r.name, change: step.diff(step.desired, r.actual) })),
    rows.map((r) => ({ name: r.name, change: r.expect })),
  );
});

test('three runs on a simulated node: servers, peers and w32time set, then nothing to do', async (t) => {
  const { n } = simulatedNode(t);
  const runs = await threeRuns(n, ntpServers({ servers: ['ntp1.mylan.k8s', 'ntp2.mylan.k8s'] }));
  t.deepEqual(runs.first.fields, ['servers', 'peers', 'w32time']);
});
