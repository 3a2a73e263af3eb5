import test from 'ava';
import { psCall, psFunction } from '../../runner/core/ps-call.js';
import { Secret } from '../../runner/core/secret.js';
import { BOOTSTRAP, POWERSHELL, bootstrapCommand, encodeCommand } from '../../runner/transport/powershell/bootstrap.js';
import { decodeClixml, errorReason } from '../../runner/transport/powershell/clixml.js';
import { clixml } from '../../lab/windows/powershell/clixml.js';
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

test('a program defines each function once, passes the calls as one JSON literal, secrets apart from it', (t) => {
  const secret = new Secret("s3cr3t'pw", 'env:X');
  const text = program([psCall(fn, { name: "it's $(evil)" }), psCall(fn, { name: 'b', pw: secret })]);
  t.is(text.split('function Get-PlayThing').length, 2);
  const literal = /\$playCalls = ConvertFrom-Json -InputObject '((?:[^']|'')*)'/.exec(text)![1]!.replace(/''/g, "'");
  t.deepEqual(JSON.parse(literal), [
    { fn: 'Get-PlayThing', args: { name: "it's $(evil)" } },
    { fn: 'Get-PlayThing', args: { name: 'b', pw: { playSecret: 0 } } },
  ]);
  t.true(text.includes(`\n$playSecrets = @('${Buffer.from("s3cr3t'pw").toString('base64')}')\n`));
  t.false(text.includes('s3cr3t'), 'the clear text is nowhere in the program');
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

test("5.1's CLIXML records (one per line, warnings, escapes) decode to the text; errorReason keeps each record's message", (t) => {
  const view =
    'ConvertFrom-Json : Error during serialization. The length of the string exceeds maxJsonLength.\r\nParameter name: input\r\n' +
    "At line:12 char:14\r\n+ $playCalls = ConvertFrom-Json -InputObject '[{...\r\n+              ~~~~~~~~~~~~~~~~\r\n" +
    '    + CategoryInfo          : NotSpecified: (:) [ConvertFrom-Json], ArgumentException\r\n' +
    '    + FullyQualifiedErrorId : System.ArgumentException,Microsoft.PowerShell.Commands.ConvertFromJsonCommand\r\n \r\n';
  const stderr = clixml('raw line\r\n', [
    ['warning', 'a <b> & _x0041_ 节点\r\n'],
    ['Error', view],
  ]);
  t.regex(
    stderr,
    /^raw line\r\n#< CLIXML\r\n<Objs Version="1\.1\.0\.1" [^>]+><S S="warning">a &lt;b&gt; &amp; _x005F_x0041_ 节点_x000D__x000A_<\/S><S S="Error">ConvertFrom-Json/,
  );
  t.is(stderr.match(/<S S="Error">/g)!.length, 8, 'one record per line of the error view');
  const text = decodeClixml(stderr);
  t.true(text.startsWith('raw line\nWARNING: a <b> & _x0041_ 节点\nConvertFrom-Json : Error during serialization.'));
  t.is(
    errorReason(text),
    'raw line WARNING: a <b> & _x0041_ 节点 ConvertFrom-Json : Error during serialization. The length of the string exceeds maxJsonLength. Parameter name: input',
  );
  t.is(errorReason('plain text\n'), 'plain text');
});
