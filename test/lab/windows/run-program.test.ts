// What the simulated Windows node does with a command and a program arriving over SSH: real
// PowerShell decodes the -EncodedCommand bootstrap, which reads the program from stdin, parses it
// with PowerShell's parser and dispatches (runner/transport/powershell/bootstrap.ts, program.ts).
// Nothing here is matched as text: a parse error, a missing function or bad JSON is PowerShell's own.
import test from 'ava';
import { psCall, psFunction } from '../../../runner/core/ps-call.js';
import { decodeClixml } from '../../../runner/transport/powershell/clixml.js';
import { BOOTSTRAP, encodeCommand } from '../../../runner/transport/powershell/bootstrap.js';
import { parseResults, program } from '../../../runner/transport/powershell/program.js';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { runPowerShell } from '../../../lab/windows/powershell/run-program.js';
import { calledFunctions } from '../../../lab/windows/powershell/called-functions.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import { model, ps, run as runFunction } from './helpers.js';

const HOSTILE = "it's a \u2019quote\u2019 ''; $(Remove-Item C:\\ -Recurse) `n `$x; & calc.exe\r\nline2 \"dq\" @'here'@";
const BOOT = encodeCommand(BOOTSTRAP);

async function send(node: ReturnType<typeof model>, text: string, encoded = BOOT) {
  return runPowerShell(await sharedPowerShellHost(), node, encoded, text);
}

test('hostile values reach the model as literal text through the real parser and come back unchanged', async (t) => {
  const node = model(t);
  const out = await send(
    node,
    program([
      ps('Set-PlayRegistryValue', {
        path: 'HKLM:\\SOFTWARE\\Play',
        name: HOSTILE,
        type: 'MultiString',
        data: [HOSTILE, '$env:COMPUTERNAME'],
      }),
      ps('Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: HOSTILE }),
    ]),
  );
  t.is(out.code, 0, out.stderr);
  const results = parseResults(out, 2, 'node009');
  t.deepEqual(results[1], { ok: true, value: { type: 'MultiString', data: [HOSTILE, '$env:COMPUTERNAME'] } });
  t.deepEqual(await runFunction(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: HOSTILE }), {
    type: 'MultiString',
    data: [HOSTILE, '$env:COMPUTERNAME'],
  });
});

test('a call of a function the program does not define fails as PowerShell says; the other calls run', async (t) => {
  const node = model(t);
  const text = program([
    ps('Get-PlayTimeZone', {}),
    psCall(psFunction('Get-PlayUnknown', '  [ordered]@{ n = 1 }'), {}),
    ps('Set-PlayTimeZone', { id: 'UTC' }),
  ]).replace(`${PLAY_FUNCTIONS['Get-PlayTimeZone'].definition}\n`, '');
  const out = await send(node, text);
  const results = parseResults(out, 3, 'node009');
  t.regex(
    (results[0] as { error: string }).error,
    /^The term 'Get-PlayTimeZone' is not recognized as .*cmdlet, function/,
  );
  t.deepEqual(
    results[1],
    { ok: true, value: { n: 1 } },
    'a function the node has never heard of runs: it is PowerShell',
  );
  t.deepEqual(results[2], { ok: true, value: {} });
  t.is(node.state.timeZone, 'UTC');
});

test("PowerShell's parser refuses a broken program before anything runs (exit 3); bad JSON is a terminating error in CLIXML (exit 1)", async (t) => {
  const node = model(t);
  const good = program([ps('Set-PlayTimeZone', { id: 'UTC' })]);
  const before = node.state.timeZone;
  const broken = await send(node, good.replace(/\n}\n\$playCalls/, '\n\n$playCalls'));
  t.is(broken.code, 3);
  t.throws(() => parseResults(broken, 1, 'node009'), {
    message: /could not parse the program \(nothing was run\): line \d+: Missing closing '}'/,
  });
  t.is(node.state.timeZone, before, 'nothing ran');

  const bad = await send(node, good.replace(/-InputObject '.*'$/m, '-InputObject \'[{"fn":\''));
  t.is(bad.code, 1);
  t.regex(bad.stderr, /^#< CLIXML\r\n<Objs [^>]+><S S="Error">/);
  t.throws(() => parseResults({ ...bad, stderr: decodeClixml(bad.stderr) }, 1, 'node009'), {
    message: /no JSON result: .*(JSON|primitive)/i,
  });
});

test('the command line is decoded and run by PowerShell itself: another -EncodedCommand runs as written', async (t) => {
  const node = model(t);
  const out = await send(node, '', encodeCommand("[Console]::Out.Write('hello ' + (2 + 3)); exit 7"));
  t.deepEqual({ stdout: out.stdout, code: out.code }, { stdout: 'hello 5', code: 7 });
});

test('calledFunctions reads the names the hangFunction fault looks for, in call order', (t) => {
  const text = program([ps('Get-PlayTimeZone', {}), ps('Set-PlayTimeZone', { id: HOSTILE })]);
  t.deepEqual(calledFunctions(text), ['get-playtimezone', 'set-playtimezone']);
  t.deepEqual(calledFunctions('Get-Process'), []);
});
