// windows.nssmService (this folder): its option errors, its diff table, and its three runs against
// the simulated node (nssm.exe and the service control manager are part of the node's shared
// Windows surface).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { writeFile } from '../../../../lab/windows/file-store.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { plan, threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import {
  KUBELET_NSSM_PARAMETERS as params,
  KUBELET_NSSM_RECORD,
  KUBELET_NSSM_SERVICE,
} from '../../../../test/helpers/windows-fixtures.js';
import { type NssmServiceActual, nssmService } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    {
      options: { name: 'kubelet', application: 'kubelet.exe', appParameters: '' },
      field: 'application',
      message: /absolute Windows path/,
    },
    { options: { name: 'kubelet', application: 'C:\\k\\kubelet.exe' }, field: 'appParameters', message: /is required/ },
    {
      options: { name: 'kubelet', application: 'C:\\k\\kubelet.exe', appParameters: '', dependOnService: ['do cker'] },
      field: 'dependOnService[0]',
      message: /service name/,
    },
  ];
  for (const r of rows) {
    const e = t.throws(() => nssmService(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.nssmService', field: r.field });
    t.regex(e!.message, r.message);
    t.true(e!.message.startsWith(`windows.nssmService: option '${r.field}' `), e!.message);
  }
});

test('diff: absent, and as in field note B (paths without regard to case)', (t) => {
  const rows: {
    name: string;
    step: ReturnType<typeof nssmService>;
    actual: NssmServiceActual | null;
    expect: Change;
  }[] = [
    {
      name: 'nssm absent',
      step: nssmService({
        name: 'kubelet',
        application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        appParameters: 'c:\\k\\kubeletstart.ps1',
      }),
      actual: null,
      expect: {
        action: 'create',
        fields: ['application', 'appParameters'],
        before: null,
        after: {
          application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
          appParameters: 'c:\\k\\kubeletstart.ps1',
        },
      },
    },
    {
      name: 'nssm as in field note B (paths without regard to case)',
      step: nssmService({
        name: 'kubelet',
        application: 'C:\\WINDOWS\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        appParameters: 'c:\\k\\kubeletstart.ps1',
      }),
      actual: {
        application: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
        appParameters: 'c:\\k\\kubeletstart.ps1',
        appDirectory: '',
        dependOnService: [],
      },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
  ];
  t.deepEqual(
    rows.map((r) => ({ name: r.name, change: r.step.diff(r.step.desired, r.actual) })),
    rows.map((r) => ({ name: r.name, change: r.expect })),
  );
});

test('nssmService (field notes B and D): installed with parameters holding quotes; drift in AppParameters is an update', async (t) => {
  const { node, n } = simulatedNode(t, (s) => writeFile(s, s.nssmPath, Buffer.from('simulated nssm.exe\n')));
  const r = await threeRuns(n, nssmService(KUBELET_NSSM_SERVICE));
  t.deepEqual(r.applyCalls, ['Set-PlayNssmService']);
  t.deepEqual(
    { ...node.state.nssm['kubelet'], DependOnService: node.state.services['kubelet']!.dependencies },
    { ...KUBELET_NSSM_RECORD, DependOnService: ['docker'] },
  );
  node.state.nssm['kubelet']!.AppParameters = 'c:\\k\\kubeletstart.ps1';
  const d = await plan(n, nssmService({ name: 'kubelet', application: 'C:\\k\\kubelet.exe', appParameters: params }));
  t.deepEqual(d.change, {
    action: 'update',
    fields: ['appParameters'],
    before: { appParameters: 'c:\\k\\kubeletstart.ps1' },
    after: { appParameters: params },
  });
});
