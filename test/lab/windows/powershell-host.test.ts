// How the simulated Windows node (a test double) reads the programs the transport builds: the
// `$playCalls` literal decoded as PowerShell would, every called function defined in the program,
// the transport's dispatcher, and the three ways the real bootstrap answers.
import test from 'ava';
import { psCall, psFunction } from '../../../runner/core/ps-call.js';
import { Secret } from '../../../runner/core/secret.js';
import { decodeClixml } from '../../../runner/transport/powershell/clixml.js';
import { parseResults, program } from '../../../runner/transport/powershell/program.js';
import { readProgram, runProgram } from '../../../lab/windows/powershell-host.js';
import { call, fn, model, ps } from './helpers.js';

const run = (node: ReturnType<typeof model>, text: string) =>
  runProgram(node, text, { hangFunction: null, gone: () => false });
const HOSTILE = "it's a \u2019quote\u2019 ''; $(Remove-Item C:\\ -Recurse) `n `$x; & calc.exe\r\nline2 \"dq\" @'here'@";

test('the $playCalls literal decodes to the calls as sent, hostile text included, secrets revealed', (t) => {
  const text = program([
    ps('Set-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: HOSTILE, type: 'String', data: HOSTILE }),
    psCall(fn('Set-PlayService'), {
      name: 'kubeproxy',
      create: false,
      account: '.\\svc',
      password: new Secret("p'w$(x)", 'env:X'),
    }),
  ]);
  const read = readProgram(text);
  if (read.kind !== 'calls') return t.fail(JSON.stringify(read));
  t.deepEqual(read.calls, [
    {
      fn: 'Set-PlayRegistryValue',
      args: { path: 'HKLM:\\SOFTWARE\\Play', name: HOSTILE, type: 'String', data: HOSTILE },
    },
    { fn: 'Set-PlayService', args: { name: 'kubeproxy', create: false, account: '.\\svc', password: "p'w$(x)" } },
  ]);
  t.deepEqual([...read.definitions.keys()], ['set-playregistryvalue', 'set-playservice']);
  t.is(read.definitions.get('set-playservice'), fn('Set-PlayService').definition);
});

test('hostile values reach the model as literal text and come back unchanged', (t) => {
  const node = model(t);
  const out = run(
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
  if (out.kind !== 'output') return t.fail(out.kind);
  t.is(out.output.code, 0);
  const results = parseResults(out.output, 2, 'node009');
  t.deepEqual(results[1], { ok: true, value: { type: 'MultiString', data: [HOSTILE, '$env:COMPUTERNAME'] } });
  t.deepEqual(call(node, 'Get-PlayRegistryValue', { path: 'HKLM:\\SOFTWARE\\Play', name: HOSTILE }), {
    type: 'MultiString',
    data: [HOSTILE, '$env:COMPUTERNAME'],
  });
});

test('a call of a function the program does not define, or the model does not know, fails as PowerShell says; the rest run', (t) => {
  const node = model(t);
  const text = program([
    ps('Get-PlayTimeZone', {}),
    psCall(psFunction('Get-PlayUnknown', '  1'), {}),
    ps('Set-PlayTimeZone', { id: 'UTC' }),
  ]).replace(`${fn('Get-PlayTimeZone').definition}\n`, '');
  const out = run(node, text);
  if (out.kind !== 'output') return t.fail(out.kind);
  const results = parseResults(out.output, 3, 'node009');
  t.regex(
    (results[0] as { error: string }).error,
    /^The term 'Get-PlayTimeZone' is not recognized as the name of a cmdlet, function, script file, or operable program\./,
  );
  t.regex((results[1] as { error: string }).error, /^The term 'Get-PlayUnknown' is not recognized/);
  t.deepEqual(results[2], { ok: true, value: {} });
});

test("programs that are not the transport's are refused like parse errors (exit 3); bad JSON is a terminating error in CLIXML", (t) => {
  const node = model(t);
  const good = program([ps('Get-PlayOsInfo', {})]);
  const refused = (text: string) => {
    const out = run(node, text);
    if (out.kind !== 'output') throw new Error(out.kind);
    t.is(out.output.code, 3);
    return t.throws(() => parseResults(out.output, 1, 'node009'))!.message;
  };
  t.regex(
    refused('Get-Process'),
    /could not parse the program \(nothing was run\): line 1: SimulatedWindowsNode runs only programs of runner\/transport\/powershell\/program\.ts/,
  );
  t.regex(refused(good.replace(/'\n\$playResults/, '\n$playResults')), /The string is missing the terminator: '\./);
  t.regex(refused(good.replace('-Depth 20', '-Depth 2')), /the dispatcher after \$playCalls is not the one/);
  t.regex(refused(`Remove-Item C:\\k -Recurse\n${good}`), /text before the first function definition/);
  t.regex(
    refused(good.replace(/\n}\n\$playCalls/, '\n\n$playCalls')),
    /the definition of Get-PlayOsInfo does not end with '}'/,
  );
  const bad = run(node, good.replace(/-InputObject '.*'$/m, '-InputObject \'[{"fn":\''));
  if (bad.kind !== 'output') return t.fail(bad.kind);
  t.is(bad.output.code, 1);
  t.regex(bad.output.stderr, /^#< CLIXML\r\n<Objs [^>]+><S S="Error">ConvertFrom-Json : Invalid JSON primitive/);
  // As HostSession reads it: CLIXML decoded first.
  t.throws(() => parseResults({ ...bad.output, stderr: decodeClixml(bad.output.stderr) }, 1, 'node009'), {
    message: /no JSON result: ConvertFrom-Json : Invalid JSON primitive: \[\{"fn":\.$/,
  });
});
