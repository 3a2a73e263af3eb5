// windows.networkCleanup (this folder): its option errors, its diff, and its three runs against the
// simulated node (HNS networks and the PnP network devices are part of the node's shared Windows surface).
import test from 'ava';
import { createNetwork } from '../../../../lab/windows/hns-store.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { bootNow, simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { plan, threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { L2BRIDGE } from '../../../../test/helpers/hns-fixtures.js';
import { networkCleanup } from './step.js';

const { diff: diffNetworkCleanup } = networkCleanup({ token: 'the diff' });

test('diff: runs once per token, says what it removes', (t) => {
  const d = { token: '2026-11-21', removeHnsNetworks: true, removeGhostAdapters: true };
  const ghosts = [{ instanceId: 'ROOT\\VMS_MP\\0001', friendlyName: 'Hyper-V Virtual Ethernet Adapter #2' }];
  t.is(
    diffNetworkCleanup(d, {
      token: '2026-11-21',
      rebootPending: false,
      hnsNetworks: ['l2bridge'],
      ghostAdapters: ghosts,
    }).action,
    'noop',
  );
  const c = diffNetworkCleanup(d, {
    token: null,
    rebootPending: false,
    hnsNetworks: ['l2bridge', 'nat'],
    ghostAdapters: ghosts,
  });
  t.is(c.action, 'run');
  t.deepEqual(c.after, { token: '2026-11-21' });
  t.regex(c.warnings![0]!, /destructive: removes 2 HNS network\(s\) \(l2bridge, nat\) and 1 ghost adapter/);
  t.is(
    diffNetworkCleanup(d, { token: '2026-01-01', rebootPending: false, hnsNetworks: [], ghostAdapters: [] }).action,
    'run',
  );
  t.deepEqual(
    diffNetworkCleanup(
      { ...d, removeHnsNetworks: false },
      { token: null, rebootPending: false, hnsNetworks: ['nat'], ghostAdapters: [] },
    ).before!.hnsNetworks,
    [],
  );
});

const optionErrors: { options: unknown; field: string; message: RegExp }[] = [
  { options: {}, field: 'token', message: /got nothing/ },
  { options: { token: 'a\nb' }, field: 'token', message: /one line/ },
  {
    options: { token: 'x', removeHnsNetworks: false, removeGhostAdapters: false },
    field: 'removeHnsNetworks',
    message: /nothing to clean up/,
  },
];

test('option errors name the step and the field', (t) => {
  for (const e of optionErrors) {
    const err = t.throws(
      () => networkCleanup(e.options as never),
      { instanceOf: StepOptionError },
      JSON.stringify(e.options),
    );
    t.is((err as StepOptionError & { field: string }).field, e.field, JSON.stringify(e.options));
    t.regex(err!.message, e.message);
  }
});

test('once per token, removes HNS networks and ghosts, owes a reboot until the node boots', async (t) => {
  const { node, n } = simulatedNode(t, (s) => {
    createNetwork(s, L2BRIDGE);
    s.pnpNetDevices.push({
      instanceId: 'ROOT\\VMS_MP\\0001',
      friendlyName: 'Hyper-V Virtual Ethernet Adapter #2',
      status: 'Error',
    });
  });
  const r = await threeRuns(n, networkCleanup({ token: '2026-11-21' }));
  t.is(r.first.action, 'run');
  t.deepEqual(r.applyCalls, ['Invoke-PlayNetworkCleanup']);
  t.deepEqual(r.outputs, { rebootRequired: true });
  t.deepEqual(node.state.hns.networks, []);
  t.deepEqual(
    node.state.pnpNetDevices.filter((d) => d.status === 'Error'),
    [],
  );
  bootNow(node, new Date('2026-11-21T10:00:00Z'));
  const after = await plan(n, networkCleanup({ token: '2026-11-21' }));
  t.is(after.change.action, 'noop');
  const step = networkCleanup({ token: '2026-11-21' });
  t.deepEqual(step.outputs!(step.desired, after.actual), { rebootRequired: false });
  t.is((await plan(n, networkCleanup({ token: 'again' }))).change.action, 'run');
});
