// windows.powershell and windows.command against the simulated Windows node (in process, our
// PowerShell under real PowerShell: sim-node.ts): the three runs with each guard, changedWhen and
// $Play.Changed (an unchanged run is marked for the report), what the probe refuses (exit, a syntax
// error) before any apply, and arguments with quotes, spaces and backslashes arriving in a native
// program's argv exactly (w32tm.exe stores /manualpeerlist's value in the registry as it got it).
import test from 'ava';
import { reportsUnchanged } from '../../../runner/core/applied.js';
import { Secret } from '../../../runner/core/secret.js';
import type { AnyStep } from '../../../runner/core/step.js';
import { readFile, writeFile } from '../../../lab/windows/file-store.js';
import { getValue } from '../../../lab/windows/registry-store.js';
import {
  command,
  defineFunction,
  type PowershellOutputs,
  powershell,
  probeFunction,
  z,
} from '../../../tasks/windows/index.js';
import { contosoSetting } from './own-step-example.js';
import { describeErrors, parsePowerShell } from '../../helpers/ps-syntax.js';
import { simulatedNode } from './sim-node.js';
import { plan, threeRuns } from './step-runs.js';

const HOSTILE = `it's "q" $(Restart-Computer) \`x\` @{a=1} ; # %TEMP%`;
const DIR = "C:\\k\\it's $(x) ‘q’";
const W32TIME = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\W32Time\\Parameters';

test('powershell with creates: runs once, its parameters arrive as data, then noop', async (t) => {
  const { node, n } = simulatedNode(t);
  const step = powershell({
    script: `param($Dir, $Text)
New-Item -ItemType Directory -Path $Dir -Force | Out-Null
Set-Content -LiteralPath (Join-Path $Dir 'done.txt') -Value $Text
Write-Host 'wrote it'
'first'; 2`,
    parameters: { Dir: DIR, Text: HOSTILE },
    creates: `${DIR}\\done.txt`,
  });
  const r = await threeRuns(n, step);
  t.deepEqual(r.first, {
    action: 'run',
    fields: ['script'],
    before: null,
    after: { script: 'param($Dir, $Text)' },
  });
  t.deepEqual(r.applyCalls, ['Invoke-PlayScript']);
  t.deepEqual(r.outputs, { output: ['first', 2], hostOut: ['wrote it'] });
  t.is(readFile(node.state, `${DIR}\\done.txt`)?.toString('latin1'), `${HOSTILE}\r\n`);
});

test('powershell with unless and removes: nothing to do once the check succeeds or the path is gone', async (t) => {
  const { n } = simulatedNode(t, (s) => writeFile(s, 'C:\\k\\old.txt', Buffer.from('x')));
  const mode = "Set-Content -LiteralPath 'C:\\k\\mode.txt' -Value 'on'";
  const check = "(Get-Content -LiteralPath 'C:\\k\\mode.txt') -eq 'on'";
  const r = await threeRuns(n, powershell({ script: mode, unless: check }));
  t.is(r.first.action, 'run');
  const gone = await threeRuns(
    n,
    powershell({ script: "Remove-Item -LiteralPath 'C:\\k\\old.txt'", removes: 'C:\\k\\old.txt' }),
  );
  t.deepEqual(gone.applyCalls, ['Invoke-PlayScript']);
});

test('powershell without a guard: always run, never converges; $Play.Changed and changedWhen decide changed', async (t) => {
  const { n } = simulatedNode(t);
  const plain = powershell({ script: "'x'" });
  t.false(plain.converges);
  const p = await plan(n, plain);
  t.is(p.change.action, 'run');
  t.false(reportsUnchanged(await plain.apply(n, p.change, p.actual, plain.desired)));

  const quiet = powershell({ script: "$Play.Changed = $false\n'nothing to do'" });
  const q = (await quiet.apply(n, p.change, null, quiet.desired)) as PowershellOutputs;
  t.true(reportsUnchanged(q));
  t.deepEqual([q.output, q.hostOut], [['nothing to do'], []]);

  const seen: unknown[] = [];
  const judged = powershell({
    script: "[pscustomobject]@{ State = 'same'; Count = 3 }",
    changedWhen: (r) => (seen.push(r), r.output[0] !== null && (r.output[0] as { State: string }).State !== 'same'),
  });
  t.true(reportsUnchanged(await judged.apply(n, p.change, null, judged.desired)));
  t.deepEqual(seen, [{ output: [{ State: 'same', Count: 3 }], hostOut: [], changed: true }]);
});

test('powershell: the probe refuses exit and a syntax error, so the plan fails before any apply', async (t) => {
  const { n } = simulatedNode(t);
  await t.throwsAsync(plan(n, powershell({ script: 'if ($true) { exit 3 }', creates: 'C:\\k\\x' })), {
    message: /the script uses exit \(line 1\), which would end play's program/,
  });
  await t.throwsAsync(plan(n, powershell({ script: "Get-Item 'C:\\k", creates: 'C:\\k\\x' })), {
    message: /the script does not parse: line 1: /,
  });
  await t.throwsAsync(plan(n, powershell({ script: "'x'", unless: 'exit 0' })), {
    message: /the unless uses exit/,
  });
  t.deepEqual(
    n.calls.map((c) => c.fn),
    ['Test-PlayGuards', 'Test-PlayGuards', 'Test-PlayGuards'],
  );
});

test('powershell: an error or a failing native program fails the apply with its message', async (t) => {
  const { n } = simulatedNode(t);
  const step = powershell({ script: "param($Reason)\nthrow ('no way: ' + $Reason)", parameters: { Reason: HOSTILE } });
  const p = await plan(n, step);
  await t.throwsAsync(step.apply(n, p.change, p.actual, step.desired), {
    message: /^powershell param\(\$Reason\) failed \(exit 1\): no way: it's "q" \$\(Restart-Computer\)/,
  });
  // As a native program leaves it (the simulated node does not start programs named in a script: windows.command does).
  const native = powershell({ script: "$global:LASTEXITCODE = 5\n'partial'" });
  await t.throwsAsync(native.apply(n, p.change, null, native.desired), {
    message: /the script's last native program exited 5 \(\$LASTEXITCODE\)/,
  });
});

test('command: arguments with spaces, quotes and backslashes reach the program as given; unless makes it run once', async (t) => {
  const { node, n } = simulatedNode(t);
  const peers = 'ntp1 "q" \\\\srv\\ x\\';
  const step = command({
    exe: 'w32tm.exe',
    args: ['/config', `/manualpeerlist:${peers}`, '/syncfromflags:manual'],
    unless: `(Get-ItemProperty -LiteralPath '${W32TIME}').NtpServer -eq '${peers.replace(/'/g, "''")}'`,
  });
  const r = await threeRuns(n, step);
  t.deepEqual(r.first, {
    action: 'run',
    fields: ['command'],
    before: null,
    after: { command: 'w32tm.exe /config "/manualpeerlist:ntp1 \\"q\\" \\\\srv\\ x\\\\" /syncfromflags:manual' },
  });
  t.deepEqual(r.applyCalls, ['Invoke-PlayProgram']);
  t.deepEqual(r.outputs, { stdout: 'The command completed successfully.\r\n', stderr: '', code: 0 });
  t.is(getValue(node.state, W32TIME, 'NtpServer')?.data, peers);
});

test('command with creates and chdir: expand.exe unpacks an .msu from a path with spaces once', async (t) => {
  const msu = 'C:\\Program Files\\k 1\\windows10.0-kb4549949-x64.msu';
  const { node, n } = simulatedNode(t, (s) => {
    writeFile(s, msu, Buffer.from('MSCF simulated update package KB4549949\n'));
    s.msuCatalogue['windows10.0-kb4549949-x64.msu'] = {
      fileName: 'windows10.0-kb4549949-x64.msu',
      kb: 'KB4549949',
      revision: 1158,
    };
    writeFile(s, 'C:\\k\\out\\keep.txt', Buffer.from(''));
  });
  const cab = 'C:\\k\\out\\Windows10.0-KB4549949-x64.cab';
  const r = await threeRuns(
    n,
    command({
      exe: 'C:\\Windows\\System32\\expand.exe',
      args: ['-F:*', msu, 'C:\\k\\out'],
      creates: cab,
      chdir: 'C:\\k',
    }),
  );
  t.deepEqual(r.applyCalls, ['Invoke-PlayProgram']);
  t.truthy(readFile(node.state, cab));
});

test('command: a failing program fails the step with its exit code and output; changedWhen can say unchanged', async (t) => {
  const { n } = simulatedNode(t);
  const bad = command({ exe: 'w32tm.exe', args: ['/config', '/bogus'] });
  const p = await plan(n, bad);
  await t.throwsAsync(bad.apply(n, p.change, p.actual, bad.desired), {
    message:
      /^command w32tm\.exe \/config \/bogus exited -2147024809: The following error occurred: The parameter is incorrect/,
  });
  const judged = command({
    exe: 'w32tm.exe',
    args: ['/config', '/syncfromflags:manual'],
    changedWhen: (r) => !/completed/.test(r.stdout),
  });
  t.true(reportsUnchanged(await judged.apply(n, p.change, null, judged.desired)));
  const missing = command({ exe: 'nothere.exe' });
  await t.throwsAsync(missing.apply(n, p.change, null, missing.desired), {
    message: /no program nothere\.exe on the PATH/,
  });
  const nowhere = command({ exe: 'w32tm.exe', chdir: 'C:\\nowhere' });
  await t.throwsAsync(nowhere.apply(n, p.change, null, nowhere.desired), {
    message: /chdir C:\\nowhere is not a directory/,
  });
});

test('option errors name the step and the field', (t) => {
  const cases: [() => unknown, RegExp][] = [
    [
      () => command({ exe: 'w32tm.exe', args: [new Secret('pw', 'env:PW') as unknown as string] }),
      /windows\.command: option 'args\[0\]' is a secret: a command line is visible/,
    ],
    [() => command({ exe: 'w32 tm.exe' }), /option 'exe' must be a full path/],
    [() => command({ exe: 'x.exe', args: 'a b' as unknown as string[] }), /option 'args' must be a list of strings/],
    [() => command({ exe: 'x.exe', creates: 'relative.txt' }), /option 'creates' must be an absolute Windows path/],
    [
      () => command({ exe: 'x.exe', args: ['a'.repeat(40000)] }),
      /option 'args' make a command line of 40006 characters; Windows allows 32766/,
    ],
    [() => powershell({ script: '' }), /windows\.powershell: option 'script' must not be empty/],
    [
      () => powershell({ script: 'x', parameters: { 'a-b': 1 } }),
      /option 'parameters\.a-b' must be named as a PowerShell parameter/,
    ],
    [
      () => powershell({ script: 'x', parameters: { P: new Secret('s', 'env:S') as unknown as string } }),
      /option 'parameters\.P' is a secret/,
    ],
    [
      () => powershell({ script: 'x', parameters: { P: { a: 1 } as unknown as string } }),
      /option 'parameters\.P' must be a string, number, boolean, null or a list of strings/,
    ],
    [
      () => powershell({ script: 'x', changedWhen: true as unknown as () => boolean }),
      /option 'changedWhen' must be a function/,
    ],
    [() => powershell({ script: 'x', unles: 'y' } as never), /option 'unles' is not an option of windows\.powershell/],
  ];
  for (const [make, message] of cases) t.throws(make, { message }, String(message));
});

test('every program the escape hatches send parses, with nothing Windows PowerShell 5.1 cannot run', async (t) => {
  const { n } = simulatedNode(t);
  const steps = [
    powershell({
      script: "'x'",
      parameters: { A: HOSTILE, B: ['a', HOSTILE], C: 1, D: true, E: null },
      unless: "Test-Path -LiteralPath 'C:\\k\\nope'",
    }),
    command({ exe: 'w32tm.exe', args: ['/config', `/manualpeerlist:${HOSTILE}`], creates: `${DIR}\\x`, chdir: DIR }),
  ];
  for (const step of steps) {
    const p = await plan(n, step);
    await (step as AnyStep).apply(n, p.change, p.actual, step.desired).catch(() => undefined); // chdir does not exist: the program still ran
  }
  t.deepEqual(
    n.calls.map((c) => c.fn),
    ['Test-PlayGuards', 'Invoke-PlayScript', 'Test-PlayGuards', 'Invoke-PlayProgram'],
  );
  for (const text of n.programs) {
    const { errors } = await parsePowerShell(text);
    t.deepEqual(errors, [], describeErrors(text, errors));
  }
});

test("a step of one's own (docs/own-repository.md): defineFunction, probeFunction, invokeFunction, three runs", async (t) => {
  const { node, n } = simulatedNode(t);
  const r = await threeRuns(n, contosoSetting({ name: 'Mode', value: HOSTILE }));
  t.deepEqual(r.first, { action: 'create', fields: ['value'], before: null, after: { value: HOSTILE } });
  t.deepEqual(r.applyCalls, ['Set-PlayContosoSetting']);
  t.is(getValue(node.state, 'HKLM:\\SOFTWARE\\Contoso', 'Mode')?.data, HOSTILE);
  const changed = await plan(n, contosoSetting({ name: 'Mode', value: 'other' }));
  t.deepEqual(changed.change, {
    action: 'update',
    fields: ['value'],
    before: { value: HOSTILE },
    after: { value: 'other' },
  });
});

test('defineFunction refuses what would clash or cannot be called', (t) => {
  const args = z.strictObject({});
  const result = z.strictObject({});
  const cases: [Parameters<typeof defineFunction>[0], string][] = [
    [
      { name: 'Get-Item', args, result, body: '1' },
      "defineFunction 'Get-Item': the name must be Verb-PlayNoun (letters and digits, e.g. Get-PlayMyThing)",
    ],
    [
      { name: 'Get-PlayHotfix', args, result, body: '1' },
      "defineFunction 'Get-PlayHotfix': play's own steps use that name; choose another",
    ],
    [
      { name: 'Get-PlayX', args: z.string() as never, result, body: '1' },
      "defineFunction 'Get-PlayX': args must be a zod object schema (z.strictObject({ ... }))",
    ],
    [{ name: 'Get-PlayX', args, result, body: ' ' }, "defineFunction 'Get-PlayX': the body is empty"],
    [
      { name: 'Get-PlayContosoSetting', args, result, body: '1' },
      "defineFunction 'Get-PlayContosoSetting': a function of that name is already defined with another body",
    ],
  ];
  for (const [spec, message] of cases) t.throws(() => defineFunction(spec), { message });
  const fn = defineFunction({
    name: 'Get-PlayY',
    args: z.strictObject({ n: z.number() }),
    result,
    body: '[ordered]@{}',
  });
  t.throws(() => probeFunction(fn, { n: 'x' as never }, () => null), {
    message: 'Get-PlayY: argument n must be a number, got "x"',
  });
});
