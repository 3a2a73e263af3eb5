// windows.autoUpdate (this folder): its option error, its diff table, and its three runs against the
// simulated node (the AU policy key and wuauserv are part of the node's shared Windows surface).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { getValue } from '../../../../lab/windows/registry-store.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { type AutoUpdateActual, autoUpdate } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    { options: {}, field: 'enabled', message: /is required/ },
  ];
  for (const r of rows) {
    const e = t.throws(() => autoUpdate(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.autoUpdate', field: r.field });
    t.regex(e!.message, r.message);
    t.true(e!.message.startsWith(`windows.autoUpdate: option '${r.field}' `), e!.message);
  }
});

test('diff: on by default, off already', (t) => {
  const step = autoUpdate({ enabled: false });
  const rows: { name: string; actual: AutoUpdateActual; expect: Change }[] = [
    {
      name: 'auto update on by default',
      actual: { noAutoUpdate: null, auOptions: null },
      expect: {
        action: 'update',
        fields: ['enabled'],
        before: { enabled: 'enabled (NoAutoUpdate unset, AUOptions unset)' },
        after: { enabled: false },
      },
    },
    {
      name: 'auto update off',
      actual: { noAutoUpdate: 1, auOptions: 4 },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
  ];
  t.deepEqual(
    rows.map((r) => ({ name: r.name, change: step.diff(step.desired, r.actual) })),
    rows.map((r) => ({ name: r.name, change: r.expect })),
  );
});

test('three runs on a simulated node: NoAutoUpdate written, then nothing to do', async (t) => {
  const { node, n } = simulatedNode(t);
  await threeRuns(n, autoUpdate({ enabled: false }));
  t.is(
    getValue(node.state, 'HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU', 'NoAutoUpdate')?.data,
    1,
  );
});
