import test from 'ava';
import { psCall, psFunction } from '../../runner/core/ps-call.js';
import { Secret } from '../../runner/core/secret.js';
import { BOOTSTRAP, POWERSHELL, bootstrapCommand, encodeCommand } from '../../runner/transport/powershell/bootstrap.js';
import { decodeClixml } from '../../runner/transport/powershell/clixml.js';
import { parseResults, program } from '../../runner/transport/powershell/program.js';

test("the bootstrap is an -EncodedCommand of UTF-16LE base64, under cmd.exe's 8191 characters", (t) => {
  const line = bootstrapCommand();
  t.true(line.startsWith(`${POWERSHELL} `));
  t.true(line.length < 8191, `${line.length}`);
  const b64 = line.slice(POWERSHELL.length + 1);
  t.is(Buffer.from(b64, 'base64').toString('utf16le'), BOOTSTRAP);
  t.is(encodeCommand('ü'), Buffer.from([0xfc, 0x00]).toString('base64'));
  t.regex(BOOTSTRAP, /Parser\]::ParseInput/);
  t.regex(BOOTSTRAP, /ProgressPreference='SilentlyContinue'/);
});

const fn = psFunction('Get-PlayThing', '  return @{ name = $a.name }');

test('a program defines each function once, passes the calls as one JSON literal, secrets revealed only there', (t) => {
  const secret = new Secret("s3cr3t'pw", 'env:X');
  const text = program([psCall(fn, { name: "it's $(evil)" }), psCall(fn, { name: 'b', pw: secret })]);
  t.is(text.split('function Get-PlayThing').length, 2);
  const literal = /\$playCalls = ConvertFrom-Json -InputObject '((?:[^']|'')*)'/.exec(text)![1]!.replace(/''/g, "'");
  t.deepEqual(JSON.parse(literal), [
    { fn: 'Get-PlayThing', args: { name: "it's $(evil)" } },
    { fn: 'Get-PlayThing', args: { name: 'b', pw: "s3cr3t'pw" } },
  ]);
  t.throws(() => program([psCall(fn, {}), psCall(psFunction('Get-PlayThing', 'return 2'), {})]), {
    message: /two different definitions/,
  });
});

test('results: one per call; parse errors, missing JSON and counts are clear errors', (t) => {
  t.deepEqual(
    parseResults(
      { stdout: '[{"ok":true,"value":{"a":1}},{"ok":false,"error":"Access is denied"}]', stderr: '', code: 0 },
      2,
      'node009',
    ),
    [
      { ok: true, value: { a: 1 } },
      { ok: false, error: 'Access is denied' },
    ],
  );
  t.throws(
    () =>
      parseResults(
        { stdout: '{"playParseErrors":["line 3: Missing closing \'}\'"]}', stderr: '', code: 3 },
        1,
        'node009',
      ),
    { message: /node009: PowerShell could not parse the program \(nothing was run\): line 3/ },
  );
  t.throws(() => parseResults({ stdout: '', stderr: "'powershell.exe' is not recognized", code: 1 }, 1, 'node009'), {
    message: /no JSON result: 'powershell.exe' is not recognized/,
  });
  t.throws(() => parseResults({ stdout: '[]', stderr: '', code: 0 }, 1, 'node009'), {
    message: /0 results for 1 calls/,
  });
});

test('CLIXML on stderr becomes readable text', (t) => {
  const clixml =
    '#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04"><S S="Error">Restart-Service : Cannot stop service \'Docker Engine (docker)\' because it has _x000D__x000A_</S><S S="Error">dependent services. &lt;kubelet&gt;_x000D__x000A_</S></Objs>';
  t.is(
    decodeClixml(clixml),
    "Restart-Service : Cannot stop service 'Docker Engine (docker)' because it has \ndependent services. <kubelet>",
  );
  t.is(decodeClixml('plain error\n'), 'plain error\n');
});
