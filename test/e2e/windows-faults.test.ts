// Faults over real SSH against simulated Windows nodes (lab/windows, a TEST DOUBLE): the HNS network
// creation that drops the connection, a reboot in the middle of a run, a hung command on one of two
// nodes, a wrong password, and hostile values that must reach the model as literal text.
import test from 'ava';
import { definePlaybook } from '../../runner/playbook/define.js';
import { readFile } from '../../lab/windows/file-store.js';
import { getValue } from '../../lab/windows/registry-store.js';
import { DOWNLOADS } from '../../lab/windows/defaults.js';
import {
  fileContent,
  hnsHostEndpoint,
  hnsNetwork,
  hotfix,
  ntpServers,
  osBuild,
  reboot,
  registryValue,
  timeZone,
  windowsService,
} from '../../tasks/windows/index.js';
import { L2BRIDGE } from '../helpers/hns-fixtures.js';
import { PASSWORD, runOne, runPlaybook, startWindowsNode } from '../helpers/simulated-windows-node.js';
import { CBR0_HOST_ENDPOINT } from '../helpers/windows-fixtures.js';

const MSU = `${DOWNLOADS}\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu`;

test('creating the L2Bridge network drops the connection: the step reconnects, the probe after apply verifies, the endpoint follows', async (t) => {
  const node = await startWindowsNode(t);
  const pb = definePlaybook({
    name: 'hns',
    description: '',
    tasks: {
      network: {
        on: 'windows',
        step: hnsNetwork(L2BRIDGE),
      },
      endpoint: {
        on: 'windows',
        needs: ['network'],
        step: hnsHostEndpoint(CBR0_HOST_ENDPOINT),
      },
    },
  });
  const report = await runPlaybook([node], pb);
  const [network, endpoint] = report.hosts.node009!.steps;
  t.like(network, { status: 'changed', action: 'create', error: null });
  t.like(endpoint, { status: 'changed', action: 'create', error: null });
  t.is(node.sim.stats.dropped, 1, 'the creation dropped the one open connection');
  t.is(node.state.hns.networks.length, 1, 'created once, not again after the reconnect');
  t.like(node.state.hns.endpoints, [{ name: 'cbr0', networkName: 'l2bridge', compartmentId: 1, forwarding: true }]);
  t.log(`network step ${network!.durationMs} ms (reconnect backoff included), whole run ${report.durationMs} ms`);
  const again = await runPlaybook([node], pb);
  t.deepEqual(
    again.hosts.node009!.steps.map((s) => s.status),
    ['ok', 'ok'],
  );
  t.is(node.sim.stats.dropped, 1);
});

test('a reboot in the middle of a run: hotfix -> reboot (its rebootRequired output) -> osBuild sees the new revision after a new boot', async (t) => {
  const node = await startWindowsNode(t, { rebootSeconds: 1 });
  const pb = definePlaybook({
    name: 'pin-build',
    description: '',
    tasks: {
      kb: { on: 'windows', step: hotfix({ kb: 'KB4549949', msuPath: MSU }) },
    },
  }).andThen({
    reboot: {
      on: 'windows',
      needs: ['kb'],
      timeoutSec: 60,
      step: (ctx) => reboot({ required: ctx.output('kb').rebootRequired, timeoutSec: 45 }),
    },
    build: { on: 'windows', needs: ['reboot'], step: osBuild({ version: '10.0.17763', revision: 1158 }) },
  });
  const before = node.snapshot();
  const plan = await runPlaybook([node], pb, { mode: 'check' });
  t.deepEqual(
    plan.hosts.node009!.steps.map((s) => s.status),
    ['changed', 'unknown', 'changed'],
  );
  t.regex(plan.hosts.node009!.steps[1]!.error!, /kb/);
  t.is(node.snapshot(), before);

  const boot = node.state.os.lastBootUpTime;
  const report = await runPlaybook([node], pb);
  const [kb, rb, build] = report.hosts.node009!.steps;
  t.like(kb, { status: 'changed', action: 'create' });
  t.like(rb, { status: 'changed', action: 'run', error: null });
  t.like(build, { status: 'ok', action: 'noop' }, build!.error ?? '');
  t.is(node.state.os.revision, 1158);
  t.not(node.state.os.lastBootUpTime, boot);
  t.true(Date.parse(node.state.os.lastBootUpTime) > Date.parse(boot));
  t.is(node.sim.node.reboots, 1);
  t.true(node.sim.stats.dropped >= 1, 'the reboot dropped the connection');
  t.log(`reboot step ${rb!.durationMs} ms (5 s restart delay + 1 s down + poll backoff), run ${report.durationMs} ms`);

  const again = await runPlaybook([node], pb);
  t.deepEqual(
    again.hosts.node009!.steps.map((s) => s.status),
    ['ok', 'ok', 'ok'],
  );
  t.is(node.sim.node.reboots, 1, 'no second reboot');
});

test("a hung command hits the task's timeoutSec: that host fails, the other node of the run finishes ok", async (t) => {
  const [a, b] = await Promise.all([
    startWindowsNode(t, { name: 'node009' }),
    startWindowsNode(t, { name: 'node010' }),
  ]);
  a.sim.setFault({ hangFunction: 'Set-PlayNtp' });
  const pb = definePlaybook({
    name: 'ntp',
    description: '',
    tasks: {
      // 5 s: the healthy node must finish its step within it on a loaded machine too (it takes ~0.5 s alone).
      ntp: { on: 'windows', timeoutSec: 5, step: ntpServers({ servers: ['ntp1.mylan.k8s'] }) },
      zone: { on: 'windows', needs: ['ntp'], step: timeZone({ id: 'China Standard Time' }) },
    },
  });
  const t0 = Date.now();
  const report = await runPlaybook([a, b], pb, { timeoutMs: 60_000 });
  const took = Date.now() - t0;
  const [ntpA, zoneA] = report.hosts.node009!.steps;
  t.is(report.hosts.node009!.status, 'failed');
  t.like(ntpA, { status: 'failed' });
  t.regex(ntpA!.error!, /^timed out after 5 s: .*did not finish within/);
  t.like(zoneA, { status: 'skipped', error: 'needs ntp on node009, which failed' });
  t.is(a.sim.stats.hung, 1);
  t.is(a.state.timeZone, 'UTC');
  t.is(report.hosts.node010!.status, 'changed');
  t.deepEqual(
    report.hosts.node010!.steps.map((s) => s.status),
    ['changed', 'changed'],
  );
  t.is(b.state.timeZone, 'China Standard Time');
  // Finished while the hung one was still waiting for its timeout: it did not wait for it.
  t.true(
    report.hosts.node010!.steps[0]!.durationMs < ntpA!.durationMs,
    `node010's ntp took ${report.hosts.node010!.steps[0]!.durationMs} ms, the hung one ${ntpA!.durationMs} ms`,
  );
  t.log(
    `hung task failed after ${ntpA!.durationMs} ms; node010 done in ${report.hosts.node010!.steps.reduce((n, s) => n + s.durationMs, 0)} ms; run ${took} ms`,
  );
});

test("a hung probe is bounded by its task's timeoutSec, not the run's default", async (t) => {
  const a = await startWindowsNode(t, { name: 'node013' });
  a.sim.setFault({ hangFunction: 'Get-PlayNtp' });
  const pb = definePlaybook({
    name: 'ntp-probe',
    description: '',
    tasks: { ntp: { on: 'windows', timeoutSec: 2, step: ntpServers({ servers: ['ntp1.mylan.k8s'] }) } },
  });
  const report = await runPlaybook([a], pb, { timeoutMs: 60_000 });
  const [ntp] = report.hosts.node013!.steps;
  t.like(ntp, { status: 'failed' });
  t.regex(ntp!.error!, /^timed out after 2 s: .*within 2 s/);
});

test('a wrong password: a clear authentication error naming user and host, reported unreachable, the password never shown', async (t) => {
  const wrong = 'Wr0ng-S3cret-Value';
  process.env.PLAY_T_WIN_PW_WRONG = wrong;
  const [bad, good] = await Promise.all([
    startWindowsNode(t, { name: 'node011', passwordEnv: 'PLAY_T_WIN_PW_WRONG' }),
    startWindowsNode(t, { name: 'node012' }),
  ]);
  const pb = definePlaybook({
    name: 'tz',
    description: '',
    tasks: {
      zone: { on: 'windows', step: timeZone({ id: 'UTC' }) },
      ntp: { on: 'windows', needs: ['zone'], step: ntpServers({ servers: ['ntp1.mylan.k8s'] }) },
    },
  });
  const report = await runPlaybook([bad, good], pb);
  const [zone, ntp] = report.hosts.node011!.steps;
  t.is(report.hosts.node011!.status, 'unreachable');
  t.like(zone, { status: 'unreachable' });
  t.regex(zone!.error!, /authentication failed for user Administrator/);
  t.regex(zone!.error!, new RegExp(`node011|127\\.0\\.0\\.1:${bad.sim.port}`));
  t.like(ntp, { status: 'unreachable' });
  t.is(report.hosts.node012!.status, 'changed');
  const text = JSON.stringify(report);
  t.false(text.includes(wrong), 'the wrong password is not in the report');
  t.false(text.includes(PASSWORD), 'nor the right one');
  t.is(bad.state.timeZone, 'UTC');
  t.log(zone!.error);
});

const HOSTILE = 'it\'s \u2018q\u2019 "dq" $(Remove-Item C:\\ -Recurse) `whoami` ; exit 1 # $env:PATH %PATH%';

test('hostile values in a binPath, registry data and names, file paths and content reach the model as literal text', async (t) => {
  const node = await startWindowsNode(t);
  const binPath = `"C:\\k\\kubelet.exe" --node-labels='a=b' --x=\u2018y\u2019 --y=$(whoami) --z=\`id\`; rm -rf / # "--q=\\"" ${HOSTILE}`;
  const withNewlines = `${HOSTILE}\nsecond line ' \u2019\r\nthird\n`;
  const path = "C:\\k\\it's \u2018q\u2019 $(x) `y`; z & w %TEMP%.txt";
  const steps = [
    () => windowsService({ name: 'kubelet', binPath, displayName: HOSTILE }),
    () =>
      registryValue({
        path: "HKLM:\\SOFTWARE\\Play\\it's $(x) `y`; z",
        name: HOSTILE,
        type: 'String',
        data: withNewlines,
      }),
    () =>
      registryValue({
        path: 'HKLM:\\SOFTWARE\\Play\\Multi',
        name: 'list',
        type: 'MultiString',
        data: [HOSTILE, "a'b\u2018c\u2019"],
      }),
    () => fileContent({ path, content: withNewlines }),
  ];
  for (const make of steps) {
    const r = await runOne(node, make());
    t.is(r.status, 'changed', r.error ?? '');
    t.like(await runOne(node, make()), { status: 'ok', action: 'noop' });
  }
  t.like(node.state.services['kubelet'], { binPath, displayName: HOSTILE });
  t.like(getValue(node.state, "HKLM:\\SOFTWARE\\Play\\it's $(x) `y`; z", HOSTILE), {
    type: 'String',
    data: withNewlines,
  });
  t.like(getValue(node.state, 'HKLM:\\SOFTWARE\\Play\\Multi', 'list'), { data: [HOSTILE, "a'b\u2018c\u2019"] });
  t.deepEqual(readFile(node.state, path), Buffer.from(withNewlines, 'utf8'));
  t.is(
    Object.keys(node.state.files).filter((k) => k.startsWith('c:\\k\\')).length,
    1,
    'one file, under the literal name',
  );
  t.throws(() => windowsService({ name: 'kubelet', binPath: 'C:\\k\\kubelet.exe\n--evil' }), {
    message: /binPath.*must be one line/,
  });
});
