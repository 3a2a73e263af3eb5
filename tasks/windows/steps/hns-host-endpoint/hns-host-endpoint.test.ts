// windows.hnsHostEndpoint (this folder): its option errors and defaults, its diff table, and its three
// runs against the simulated node (HNS and the host's vNICs are part of the node's shared Windows surface).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { L2BRIDGE } from '../../../../test/helpers/hns-fixtures.js';
import { CBR0_HOST_ENDPOINT as EP } from '../../../../test/helpers/windows-fixtures.js';
import { hnsNetwork } from '../../hns-network.js';
import { type HnsHostEndpointActual, hnsHostEndpoint } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    { options: { ...EP, ipAddress: '10.160.12.2' }, field: 'ipAddress', message: /not inside addressPrefix/ },
    { options: { ...EP, ipAddress: '10.160.11.0' }, field: 'ipAddress', message: /network address/ },
    { options: { ...EP, gateway: '10.160.11.2' }, field: 'gateway', message: /own address/ },
    { options: { ...EP, gateway: '192.168.1.1' }, field: 'gateway', message: /not inside/ },
    { options: { ...EP, compartmentId: 2 }, field: 'compartmentId', message: /must be 1/ },
    {
      options: { name: 'cbr0', network: 'l2bridge', ipAddress: '10.160.11.2' },
      field: 'addressPrefix',
      message: /got nothing/,
    },
  ];
  for (const r of rows) {
    const e = t.throws(() => hnsHostEndpoint(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.hnsHostEndpoint', field: r.field });
    t.regex(e!.message, r.message);
  }
});

test('defaults: no gateway (0.0.0.0), the host compartment 1, forwarding on', (t) => {
  t.deepEqual(hnsHostEndpoint(EP).desired, { ...EP, gateway: '0.0.0.0', compartmentId: 1, forwarding: true });
});

const epActual: HnsHostEndpointActual = {
  id: 'e1',
  network: 'l2bridge',
  ipAddress: '10.160.11.2',
  gateway: '0.0.0.0',
  compartmentId: 1,
  forwarding: true,
};

test('diff: absent, converged, detached, at another address', (t) => {
  const step = hnsHostEndpoint(EP);
  const rows: { name: string; actual: HnsHostEndpointActual | null; expect: Change }[] = [
    {
      name: 'hns endpoint absent',
      actual: null,
      expect: {
        action: 'create',
        fields: ['endpoint', 'compartmentId', 'forwarding'],
        before: null,
        after: { endpoint: '10.160.11.2 on l2bridge, gateway 0.0.0.0', compartmentId: 1, forwarding: true },
      },
    },
    {
      name: 'hns endpoint empty gateway is 0.0.0.0',
      actual: { ...epActual },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
    {
      name: 'hns endpoint detached',
      actual: { ...epActual, compartmentId: null, forwarding: false },
      expect: {
        action: 'update',
        fields: ['compartmentId', 'forwarding'],
        before: { compartmentId: null, forwarding: false },
        after: { compartmentId: 1, forwarding: true },
      },
    },
    {
      name: 'hns endpoint other IP',
      actual: { ...epActual, ipAddress: '10.160.11.3' },
      expect: {
        action: 'replace',
        fields: ['endpoint', 'compartmentId', 'forwarding'],
        before: { endpoint: '10.160.11.3 on l2bridge, gateway 0.0.0.0', compartmentId: 1, forwarding: true },
        after: { endpoint: '10.160.11.2 on l2bridge, gateway 0.0.0.0', compartmentId: 1, forwarding: true },
      },
    },
  ];
  t.deepEqual(
    rows.map((r) => ({ name: r.name, change: step.diff(step.desired, r.actual) })),
    rows.map((r) => ({ name: r.name, change: r.expect })),
  );
});

test('three runs (field note A, with its network): created, attached with forwarding; outputs the ids', async (t) => {
  const { node, n } = simulatedNode(t);
  const net = await threeRuns(n, hnsNetwork(L2BRIDGE));
  t.deepEqual(net.outputs, { id: node.state.hns.networks.find((x) => x.name === 'l2bridge')!.id });
  const ep = await threeRuns(n, hnsHostEndpoint(EP));
  t.deepEqual(ep.applyCalls, ['New-PlayHnsEndpoint', 'Set-PlayHnsEndpointHost']);
  const cbr0 = () => node.state.hns.endpoints.find((e) => e.name === 'cbr0')!;
  t.like(cbr0(), { ipAddress: '10.160.11.2', gateway: '0.0.0.0', compartmentId: 1, forwarding: true });
  cbr0().forwarding = false;
  const drift = await threeRuns(n, hnsHostEndpoint(EP));
  t.deepEqual(drift.applyCalls, ['Set-PlayHnsEndpointHost']);
});
