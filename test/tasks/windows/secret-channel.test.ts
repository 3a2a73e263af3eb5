// Secret arguments of PowerShell calls travel apart from the calls' JSON (runner/transport/powershell/
// program.ts): the JSON holds a placeholder, the clear text is base64 in $playSecrets, and the function
// gets a plain string. Run under real PowerShell on the simulated node (lab/windows, a test double),
// whose ConvertFrom-Json error record quotes the text it could not read, as Windows PowerShell's does.
import test from 'ava';
import { psCall, psFunction } from '../../../runner/core/ps-call.js';
import { escapedForms, Secret } from '../../../runner/core/secret.js';
import { BOOTSTRAP, encodeCommand } from '../../../runner/transport/powershell/bootstrap.js';
import { decodeClixml } from '../../../runner/transport/powershell/clixml.js';
import { parseResults, program } from '../../../runner/transport/powershell/program.js';
import { callNode } from '../../../lab/windows/powershell/call.js';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { runPowerShell } from '../../../lab/windows/powershell/run-program.js';
import { call } from '../../../tasks/windows/remote/calls.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import { callsLiteralOf, callsOf } from './calls-literal.js';
import { simulatedNode } from './sim-node.js';

/** Hostile on purpose: both quote kinds, a typographic quote, a backtick, `$`, a backslash, a line break. */
const CLEAR = `Zq"ss'w\u2019rd\`$(x)\\ ü\nline2`;
const secret = () => new Secret(CLEAR, 'env:PLAY_T_CHANNEL');
const echo = psFunction('Get-PlayEcho', '  [ordered]@{ pw = $a.pw; type = $a.pw.GetType().Name; name = $a.name }');

/** True when `text` holds the clear text in any form it could be escaped into. */
const shows = (text: string) => escapedForms(CLEAR).some((form) => text.includes(form));
/** True when `text` holds the start or the end of the clear text (an error record may cut out its middle). */
const showsPart = (text: string) => text.includes('Zq') || text.includes('line2');

/** The program with its calls' JSON cut short (its closing `]` dropped): ConvertFrom-Json fails on it. */
const brokenJson = (text: string) => text.replace(/]'\n/, "'\n");

test('a secret argument reaches the function as a plain string; the program carries it only as base64', async (t) => {
  const { node } = simulatedNode(t);
  const calls = [psCall(echo, { pw: secret(), name: 'a' }), psCall(echo, { pw: 'plain', name: 'b' })];
  const text = program(calls);
  t.false(shows(text), 'no form of the clear text anywhere in the program');
  t.deepEqual(JSON.parse(callsLiteralOf(text)), [
    { fn: 'Get-PlayEcho', args: { pw: { playSecret: 0 }, name: 'a' } },
    { fn: 'Get-PlayEcho', args: { pw: 'plain', name: 'b' } },
  ]);
  t.deepEqual(callsOf(text)[0]!.args, { pw: CLEAR, name: 'a' }, 'as PowerShell resolves it');
  t.deepEqual(await callNode(node, calls), [
    { ok: true, value: { pw: CLEAR, type: 'String', name: 'a' } },
    { ok: true, value: { pw: 'plain', type: 'String', name: 'b' } },
  ]);
});

test('broken calls JSON: PowerShell quotes the JSON in its error, and the secret is not in it', async (t) => {
  const { node } = simulatedNode(t);
  const host = await sharedPowerShellHost();
  const run = async (pw: string | Secret) => {
    const out = await runPowerShell(host, node, encodeCommand(BOOTSTRAP), brokenJson(program([psCall(echo, { pw })])));
    return { ...out, stderr: decodeClixml(out.stderr) };
  };
  const withSecret = await run(secret());
  t.is(withSecret.code, 1);
  t.regex(withSecret.stderr, /ConvertFrom-Json/);
  t.throws(() => parseResults(withSecret, 1, 'node009'), { message: /no JSON result: .*ConvertFrom-Json/ });
  t.false(shows(withSecret.stdout + withSecret.stderr) || showsPart(withSecret.stderr), withSecret.stderr);
  // The same value as a plain argument is echoed (its ends, at least): the check above can fail.
  const asPlainText = await run(CLEAR);
  t.true(showsPart(asPlainText.stderr), asPlainText.stderr);
});

test("a contract call's Secret (Set-PlayService's password) is out of the JSON the step sends", (t) => {
  const text = program([
    call(PLAY_FUNCTIONS['Set-PlayService'], {
      name: 'kubelet',
      create: false,
      account: '.\\svc-kube',
      password: secret(),
    }),
  ]);
  t.false(shows(text));
  t.deepEqual(JSON.parse(callsLiteralOf(text))[0].args.password, { playSecret: 0 });
  t.is(callsOf(text)[0]!.args.password, CLEAR);
});

test('a Secret inside an argument (not a whole argument) is a bug: refused before anything is sent', (t) => {
  t.throws(() => program([psCall(echo, { pw: [secret()] })]), {
    message: 'Get-PlayEcho: a Secret may only be a whole argument, not inside pw',
  });
});
