// windows.registryValue (this folder): its option errors and normalization, its diff table, and its
// three runs against the simulated node (the registry is part of the node's shared Windows surface).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { getValue } from '../../../../lab/windows/registry-store.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { NV_DOMAIN_VALUE } from '../../../../test/helpers/windows-fixtures.js';
import { type RegistryValueActual, registryValue } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    {
      options: { path: 'SOFTWARE\\X', name: 'a', type: 'String', data: 'b' },
      field: 'path',
      message: /registry key path/,
    },
    {
      options: { path: 'HKLM:\\X', name: 'a', type: 'REG_SZ', data: 'b' },
      field: 'type',
      message: /one of String, ExpandString/,
    },
    {
      options: { path: 'HKLM:\\X', name: 'a', type: 'DWord', data: -1 },
      field: 'data',
      message: /0 to 4294967295 for type DWord/,
    },
    {
      options: { path: 'HKLM:\\X', name: 'a', type: 'DWord', data: '1' },
      field: 'data',
      message: /for type DWord, got "1"/,
    },
    {
      options: { path: 'HKLM:\\X', name: 'a', type: 'MultiString', data: ['a', ''] },
      field: 'data',
      message: /non-empty strings/,
    },
    {
      options: { path: 'HKLM:\\X', name: 'a', type: 'Binary', data: 'abc' },
      field: 'data',
      message: /hex digits in pairs/,
    },
  ];
  for (const r of rows) {
    const e = t.throws(() => registryValue(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.registryValue', field: r.field });
    t.regex(e!.message, r.message);
    t.true(e!.message.startsWith(`windows.registryValue: option '${r.field}' `), e!.message);
  }
});

test('normalization: registry hives, the default value, Binary as hex', (t) => {
  t.deepEqual(
    registryValue({ path: 'HKEY_LOCAL_MACHINE\\SOFTWARE\\X', name: '', type: 'Binary', data: '0A FF' }).desired,
    { path: 'HKLM:\\SOFTWARE\\X', name: '(default)', type: 'Binary', data: '0aff' },
  );
  t.deepEqual(registryValue({ path: 'Registry::HKLM\\SOFTWARE\\X', name: 'n', type: 'QWord', data: 2 ** 40 }).desired, {
    path: 'HKLM:\\SOFTWARE\\X',
    name: 'n',
    type: 'QWord',
    data: 2 ** 40,
  });
});

test('diff: absent, data differs, type differs, a MultiString the same', (t) => {
  const dword = registryValue({ path: 'HKLM:\\X', name: 'a', type: 'DWord', data: 1 });
  const rows: {
    name: string;
    step: ReturnType<typeof registryValue>;
    actual: RegistryValueActual | null;
    expect: Change;
  }[] = [
    {
      name: 'registry absent',
      step: dword,
      actual: null,
      expect: { action: 'create', fields: ['type', 'data'], before: null, after: { type: 'DWord', data: 1 } },
    },
    {
      name: 'registry data differs',
      step: dword,
      actual: { type: 'DWord', data: 0 },
      expect: { action: 'update', fields: ['data'], before: { data: 0 }, after: { data: 1 } },
    },
    {
      name: 'registry type differs',
      step: registryValue({ path: 'HKLM:\\X', name: 'a', type: 'ExpandString', data: '%SystemRoot%' }),
      actual: { type: 'String', data: '%SystemRoot%' },
      expect: {
        action: 'update',
        fields: ['type', 'data'],
        before: { type: 'String', data: '%SystemRoot%' },
        after: { type: 'ExpandString', data: '%SystemRoot%' },
      },
    },
    {
      name: 'registry multistring same',
      step: registryValue({ path: 'HKLM:\\X', name: 'a', type: 'MultiString', data: ['a', 'b'] }),
      actual: { type: 'MultiString', data: ['a', 'b'] },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
  ];
  t.deepEqual(
    rows.map((r) => ({ name: r.name, change: r.step.diff(r.step.desired, r.actual) })),
    rows.map((r) => ({ name: r.name, change: r.expect })),
  );
});

test('three runs on a simulated node: NV Domain written, then nothing to do', async (t) => {
  const { node, n } = simulatedNode(t);
  await threeRuns(n, registryValue(NV_DOMAIN_VALUE));
  t.like(getValue(node.state, 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters', 'NV Domain'), {
    type: 'String',
    data: 'mylan.k8s',
  });
});
