// windows.feature and windows.capability (this folder): their option errors, their diff table, and
// their three runs against the simulated node (Get-WindowsFeature, Get-WindowsCapability and their
// install cmdlets are part of the node's shared Windows surface).
import test from 'ava';
import { diffTests, type DiffRow } from '../../../../test/tasks/windows/diff-rows.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { windowsCapability, windowsFeature } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { make: (o: never) => unknown; options: unknown; kind: string; field: string; message: RegExp }[] = [
    {
      make: windowsFeature,
      options: { name: 'Hyper-V*' },
      kind: 'windows.feature',
      field: 'name',
      message: /feature name/,
    },
    {
      make: windowsCapability,
      options: {},
      kind: 'windows.capability',
      field: 'name',
      message: /must be a string, got nothing/,
    },
  ];
  for (const r of rows) {
    const e = t.throws(() => r.make(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: r.kind, field: r.field });
    t.regex(e!.message, r.message);
    t.true(e!.message.startsWith(`${r.kind}: option '${r.field}' `), e!.message);
  }
});

// Each row's change whole (a row with `warning` compares its warnings by that pattern instead).

const rows: DiffRow[] = [
  {
    name: 'feature available',
    step: windowsFeature({ name: 'Containers' }),
    actual: { known: true, state: 'Available' },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: 'Available' },
      after: { installed: 'Installed' },
    },
  },
  {
    name: 'feature pending',
    step: windowsFeature({ name: 'Containers' }),
    actual: { known: true, state: 'InstallPending' },
    expect: { action: 'noop', fields: [], before: null, after: null, warning: /next reboot/ },
  },
  {
    name: 'feature unknown name',
    step: windowsFeature({ name: 'Containerz' }),
    actual: { known: false, state: 'Unknown' },
    expect: {
      action: 'create',
      fields: ['installed'],
      before: { installed: 'unknown name' },
      after: { installed: 'Installed' },
      warning: /no feature named Containerz: apply will fail/,
    },
  },
  {
    name: 'capability installed',
    step: windowsCapability({ name: 'OpenSSH.Server~~~~0.0.1.0' }),
    actual: { known: true, state: 'Installed' },
    expect: { action: 'noop', fields: [], before: null, after: null },
  },
];

diffTests(rows);

test('windowsFeature and windowsCapability: installed; a pending feature reports rebootRequired on later runs too', async (t) => {
  // A fresh node: Containers Available, OpenSSH.Server NotPresent (lab/windows/defaults.ts).
  const { n } = simulatedNode(t);
  const f = await threeRuns(n, windowsFeature({ name: 'Containers' }));
  t.deepEqual(f.outputs, { rebootRequired: true });
  const c = await threeRuns(n, windowsCapability({ name: 'OpenSSH.Server~~~~0.0.1.0' }));
  t.deepEqual(c.outputs, { rebootRequired: false });
  t.deepEqual(c.applyCalls, ['Add-PlayWindowsCapability']);
});
