// The simulated Windows node runs the full PowerShell 7.6 and says no where Windows PowerShell 5.1
// does: each 5.1 shim of the host (pwsh-host/Json51.cs, mock/Compat51.psm1, mock/Clock.psm1) pinned by
// what 5.1 writes, and the allow-list (pwsh-host/Session.cs): a command the node does not model is not
// recognized, and nothing a program does reaches this machine's disk.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import test from 'ava';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { surfaceOf } from '../../../lab/windows/surface/index.js';
import { readFile } from '../../../lab/windows/file-store.js';
import type { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { model } from './helpers.js';

/** A script run as powershell.exe -Command would run it on the node. */
async function ps(script: string, node: SimulatedWindowsNode) {
  const host = await sharedPowerShellHost();
  return host.run({ script }, surfaceOf(node));
}

test("ConvertTo-Json writes 5.1's JavaScriptSerializer text: ' < > & escaped, dates as \\/Date()\\/, 1.0 as 1", async (t) => {
  const node = model(t);
  const out = await ps(
    `$d = [datetime]::new(2020, 5, 8, 10, 0, 0, [DateTimeKind]::Utc)
     [Console]::Out.Write((ConvertTo-Json -Compress -InputObject ([ordered]@{ s = "it's <a> & b" + [char]0x2028 + [char]9; d = $d; x = 1.0; n = 3; e = [System.DayOfWeek]::Friday; z = $null })))`,
    node,
  );
  t.is(out.stderr, '');
  t.is(
    out.stdout,
    '{"s":"it\\u0027s \\u003ca\\u003e \\u0026 b\\u2028\\t","d":"\\/Date(1588932000000)\\/","x":1,"n":3,"e":5,"z":null}',
  );
});

test("ConvertTo-Json without -Compress indents as 5.1: 4 spaces, '\"key\":  value', nested values from the key's end", async (t) => {
  const node = model(t);
  const out = await ps(
    `[Console]::Out.Write((ConvertTo-Json -InputObject ([ordered]@{ Guid = 'g'; Parent = [ordered]@{ a = @(1, 2); b = @() } })))`,
    node,
  );
  t.is(
    out.stdout,
    [
      '{',
      '    "Guid":  "g",',
      '    "Parent":  {',
      '                   "a":  [',
      '                             1,',
      '                             2',
      '                         ],',
      '                   "b":  [',
      '',
      '                         ]',
      '               }',
      '}',
    ].join('\r\n'),
  );
});

test("ConvertTo-Json: past -Depth the text, silently; $null piped is nothing; an array in a PSObject has 5.1's Count", async (t) => {
  const node = model(t);
  const out = await ps(
    `$deep = @{ a = @{ b = @{ c = @{ d = 1 } } } }
     [Console]::Out.WriteLine((ConvertTo-Json -Compress -InputObject $deep))
     [Console]::Out.WriteLine('[' + ($null | ConvertTo-Json) + ']')
     $wrapped = Write-Output -NoEnumerate @(1, 2)
     [Console]::Out.WriteLine((ConvertTo-Json -Compress -InputObject @{ w = $wrapped }))
     ConvertTo-Json -InputObject 1 -Depth 101`,
    node,
  );
  t.deepEqual(out.stdout.split('\r\n').slice(0, 3), [
    '{"a":{"b":{"c":"System.Collections.Hashtable"}}}',
    '[]',
    '{"w":{"value":[1,2],"Count":2}}',
  ]);
  t.deepEqual(
    out.streams.map(([s]) => s),
    ['Error'],
    'no truncation warning, one error',
  );
  t.regex(out.stderr, /^ConvertTo-Json : The maximum depth allowed for serialization is 100\./);
});

test("ConvertFrom-Json refuses input over 2,097,152 characters with 5.1's JavaScriptSerializer error; at the limit it reads", async (t) => {
  const node = model(t);
  const at = await ps(`$s = '"' + ('x' * 2097150) + '"'; [Console]::Out.Write((ConvertFrom-Json $s).Length)`, node);
  t.is(at.stdout, '2097150');
  const over = await ps(
    `$ErrorActionPreference = 'Stop'; $s = '"' + ('x' * 2097151) + '"'; ConvertFrom-Json $s; 'not reached'`,
    node,
  );
  t.is(over.exitCode, 1);
  t.is(over.stdout, '');
  t.is(
    over.stderr.split('\r\n').slice(0, 2).join('\n'),
    'ConvertFrom-Json : Error during serialization or deserialization using the JSON JavaScriptSerializer. The length of the string exceeds the value set on the maxJsonLength property.\nParameter name: input',
  );
  t.regex(over.stderr, /\+ CategoryInfo {10}: NotSpecified: \(:\) \[ConvertFrom-Json\], ArgumentException/);
});

test('ConvertFrom-Json as 5.1: an array is one object, date-like text stays text, an empty string is refused', async (t) => {
  const node = model(t);
  const out = await ps(
    `$n = 0; '[1,2,3]' | ConvertFrom-Json | ForEach-Object { $n++ }
     $o = ConvertFrom-Json '{"when":"2020-05-08T10:00:00Z"}'
     [Console]::Out.Write(('{0} {1}' -f $n, $o.when.GetType().Name))
     ConvertFrom-Json ''`,
    node,
  );
  t.is(out.stdout, '1 String');
  t.regex(out.stderr, /Cannot bind argument to parameter 'InputObject' because it is an empty string/);
});

test("Start-Sleep moves the node's virtual clock, -Seconds an int as in 5.1; Get-Date reads that clock", async (t) => {
  const node = model(t);
  const out = await ps(
    `$a = Get-Date; Start-Sleep -Seconds 1.5; $b = Get-Date; Start-Sleep -Milliseconds 250
     [Console]::Out.Write(((Get-Date) - $a).TotalMilliseconds.ToString() + ' ' + ($b - $a).TotalSeconds + ' ' + (Get-Date -Year 2020 -Format yyyy))`,
    node,
  );
  t.is(out.stdout, '2250 2 2020');
});

test('only the allow-list: what the node does not model is not recognized, nothing reaches this machine', async (t) => {
  const node = model(t);
  const canary = `play-canary-${process.pid}-${Date.now()}`;
  const before = readdirSync(tmpdir()).filter((f) => f.startsWith('play-canary-'));
  const commands = [
    'Get-Process',
    'Restart-Computer',
    'Set-Date (Get-Date)',
    `Out-File -FilePath /tmp/${canary}.out -InputObject x`,
    `Invoke-WebRequest http://127.0.0.1:9`,
    "Add-Type -TypeDefinition 'public class X {}'",
    'Join-String -InputObject a',
    `Export-Csv -Path /tmp/${canary}.csv -InputObject 1`,
  ];
  for (const c of commands) {
    const out = await ps(c, node);
    const name = c.split(' ')[0]!;
    t.regex(out.stderr, new RegExp(`The term '${name}' is not recognized`), c);
  }
  const imported = await ps('Import-Module Microsoft.PowerShell.Management -ErrorAction Stop', node);
  t.regex(imported.stderr, /was not loaded because no valid module file was found/);
  // Windows cmdlets and .NET's File act on the node's model: a Linux path is C:\tmp\... there.
  const written = await ps(
    `New-Item -ItemType Directory /tmp/${canary}.d | Out-Null; Set-Content -Path /tmp/${canary}.txt -Value a; [System.IO.File]::WriteAllText('/tmp/${canary}.net', 'b')`,
    node,
  );
  t.is(written.stderr, '');
  t.deepEqual(readFile(node.state, `C:\\tmp\\${canary}.txt`), Buffer.from('a\r\n'));
  t.deepEqual(readFile(node.state, `C:\\tmp\\${canary}.net`), Buffer.from('b'));
  t.deepEqual(
    readdirSync(tmpdir()).filter((f) => f.startsWith('play-canary-')),
    before,
  );
  t.false(existsSync(`/tmp/${canary}.txt`));
});
