// windows.scheduledTask (this folder): its option errors, its diff table, and
// its three runs against the simulated node, whose ScheduledTasks module is the folder's simulator
// part (a task is its XML file under C:\Windows\System32\Tasks, where Windows keeps it).
import test from 'ava';
import { NOOP } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { SCHEDULED_TASK_REMOTE } from './remote.js';
import { scheduledTask, type ScheduledTaskFields, type ScheduledTaskOptions } from './step.js';
import { readFile } from '../../../../lab/windows/file-store.js';
import { callNode } from '../../../../lab/windows/powershell/call.js';
import { psCall } from '../../../../runner/core/ps-call.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { plan, threeRuns } from '../../../../test/tasks/windows/step-runs.js';

const HNS = { name: 'hns-network', path: '\\Play', execute: 'powershell.exe', trigger: 'atStartup' } as const;
const TASK_FILE = 'C:\\Windows\\System32\\Tasks\\Play\\hns-network';

test('option errors name the field and say what is wanted', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    { options: { ...HNS, name: 'a\\b' }, field: 'name', message: /must be a task name .* got the string "a\\\\b"/ },
    { options: { ...HNS, path: 'Play' }, field: 'path', message: /must be a task folder such as \\ or \\Play\\/ },
    { options: { ...HNS, trigger: 'daily' }, field: 'trigger', message: /must be 'atStartup' or \{ daily: 'HH:mm' \}/ },
    { options: { ...HNS, trigger: { daily: '25:00' } }, field: 'trigger.daily', message: /a time of day HH:mm/ },
    { options: { ...HNS, user: 'a"b' }, field: 'user', message: /must be an account such as SYSTEM/ },
    { options: { ...HNS, enabled: 'yes' }, field: 'enabled', message: /must be true or false, got the string "yes"/ },
    { options: { ...HNS, arguments: 'a\nb' }, field: 'arguments', message: /must be one line/ },
    { options: { name: 'x', trigger: 'atStartup' }, field: 'execute', message: /is required unless state is 'absent'/ },
    { options: { name: 'x', execute: 'a.exe' }, field: 'trigger', message: /is required unless state is 'absent'/ },
    { options: { ...HNS, state: 'gone' }, field: 'state', message: /must be one of "present", "absent"/ },
    {
      options: { ...HNS, at: '03:00' },
      field: 'at',
      message: /is not an option of windows.scheduledTask \(known: name, path/,
    },
  ];
  const got = rows.map((r) => {
    const e = t.throws(() => scheduledTask(r.options as ScheduledTaskOptions), { instanceOf: StepOptionError });
    return { field: e?.field, kind: e?.kind, matches: r.message.test(e?.message ?? '') || e?.message };
  });
  t.deepEqual(
    got,
    rows.map((r) => ({ field: r.field, kind: 'windows.scheduledTask', matches: true })),
  );
});

test('desired: defaults filled in, the folder given its trailing backslash', (t) => {
  const s = scheduledTask({ ...HNS });
  t.is(s.title, 'scheduled task \\Play\\hns-network');
  t.deepEqual(s.desired, {
    name: 'hns-network',
    path: '\\Play\\',
    task: { execute: 'powershell.exe', arguments: '', trigger: 'at startup', user: 'SYSTEM', enabled: true },
    trigger: { kind: 'atStartup' },
  });
  t.deepEqual(scheduledTask({ name: 'x', state: 'absent' }).desired, {
    name: 'x',
    path: '\\',
    task: null,
    trigger: null,
  });
});

const ACTUAL: ScheduledTaskFields = {
  execute: 'powershell.exe',
  arguments: '',
  trigger: 'at startup',
  user: 'SYSTEM',
  enabled: true,
};

test('the diff, compared whole', (t) => {
  const rows: { options: ScheduledTaskOptions; actual: ScheduledTaskFields | null; change: unknown }[] = [
    {
      options: HNS,
      actual: null,
      change: {
        action: 'create',
        fields: ['execute', 'arguments', 'trigger', 'user', 'enabled'],
        before: null,
        after: ACTUAL,
      },
    },
    { options: HNS, actual: ACTUAL, change: NOOP },
    // Windows shows NT AUTHORITY\SYSTEM as SYSTEM, and paths are not case-sensitive.
    {
      options: { ...HNS, user: 'NT AUTHORITY\\SYSTEM', execute: 'PowerShell.exe' },
      actual: ACTUAL,
      change: NOOP,
    },
    {
      options: { ...HNS, trigger: { daily: '03:00' }, enabled: false },
      actual: ACTUAL,
      change: {
        action: 'update',
        fields: ['trigger', 'enabled'],
        before: { trigger: 'at startup', enabled: true },
        after: { trigger: 'daily at 03:00', enabled: false },
      },
    },
    {
      options: { ...HNS, arguments: '-File C:\\k\\hns.ps1', user: 'NETWORK SERVICE' },
      actual: { ...ACTUAL, trigger: 'at startup & daily at 02:00' },
      change: {
        action: 'update',
        fields: ['arguments', 'trigger', 'user'],
        before: { arguments: '', trigger: 'at startup & daily at 02:00', user: 'SYSTEM' },
        after: { arguments: '-File C:\\k\\hns.ps1', trigger: 'at startup', user: 'NETWORK SERVICE' },
      },
    },
    {
      options: { name: 'hns-network', path: '\\Play\\', state: 'absent' },
      actual: ACTUAL,
      change: {
        action: 'delete',
        fields: ['task'],
        before: { task: 'powershell.exe (at startup)' },
        after: { task: null },
      },
    },
    { options: { name: 'hns-network', state: 'absent' }, actual: null, change: NOOP },
  ];
  for (const r of rows) {
    const s = scheduledTask(r.options);
    t.deepEqual(s.diff(s.desired, r.actual), r.change, JSON.stringify(r.options));
  }
});

test('three runs: registered at startup, changed to daily and disabled, then unregistered', async (t) => {
  const { node, n } = simulatedNode(t);
  const created = await threeRuns(n, scheduledTask({ ...HNS, arguments: '-NoProfile -File C:\\k\\hns.ps1' }));
  t.is(created.first.action, 'create');
  t.deepEqual(created.applyCalls, ['Set-PlayScheduledTask']);
  // Where Windows keeps it: the task's XML, UTF-16.
  const xml = readFile(node.state, TASK_FILE)!.toString('utf16le');
  t.regex(xml, /<Command>powershell\.exe<\/Command><Arguments>-NoProfile -File C:\\k\\hns\.ps1<\/Arguments>/);
  t.regex(xml, /<UserId>S-1-5-18<\/UserId><LogonType>ServiceAccount<\/LogonType>/);

  const daily = await threeRuns(
    n,
    scheduledTask({
      ...HNS,
      arguments: '-NoProfile -File C:\\k\\hns.ps1',
      trigger: { daily: '03:00' },
      enabled: false,
    }),
  );
  t.deepEqual(daily.first.fields, ['trigger', 'enabled']);
  t.regex(
    readFile(node.state, TASK_FILE)!.toString('utf16le'),
    /<CalendarTrigger><StartBoundary>[0-9-]+T03:00:00<\/StartBoundary>.*<Enabled>false<\/Enabled>/,
  );

  const removed = await threeRuns(n, scheduledTask({ name: 'hns-network', path: '\\Play', state: 'absent' }));
  t.is(removed.first.action, 'delete');
  t.deepEqual(removed.applyCalls, ['Remove-PlayScheduledTask']);
  t.is(readFile(node.state, TASK_FILE), null);
});

test('Windows says no: an account it cannot map, a task registered since the plan, a time that is not one', async (t) => {
  const { node, n } = simulatedNode(t);
  const nobody = scheduledTask({ ...HNS, user: 'nobody' });
  const p = await plan(n, nobody);
  await t.throwsAsync(nobody.apply(n, p.change, p.actual, nobody.desired), {
    message:
      /scheduled task \\Play\\hns-network: Register-ScheduledTask.*No mapping between account names and security IDs was done/s,
  });
  const step = scheduledTask(HNS);
  const planned = await plan(n, step);
  await threeRuns(n, scheduledTask({ ...HNS, execute: 'cmd.exe' }));
  await t.throwsAsync(step.apply(n, planned.change, planned.actual, step.desired), {
    message: /Cannot create a file when that file already exists/,
  });
  const args = { name: 'x', path: '\\', create: true, execute: 'a.exe', trigger: { kind: 'daily', at: '25:00' } };
  const [r] = await callNode(node, [psCall(SCHEDULED_TASK_REMOTE['Set-PlayScheduledTask'], args)]);
  t.like(r, { ok: false });
  t.regex((r as { error: string }).error, /Cannot process argument transformation on parameter 'At'.*25:00/s);
});
