import { PwshHost } from '../client.mjs';
const h = await PwshHost.start();
const snippets = [
  '$x = $a ? 1 : 2', '$x = $a ?? 1', '$x ??= 1', '$x = $a?.b', '$x = ${a}?[0]', 'Get-Item a && Get-Item b', 'Get-Item a || exit 1',
  "'{}' | ConvertFrom-Json -AsHashtable", "'{}' | ConvertFrom-Json -Depth 5", '1..3 | ForEach-Object -Parallel { $_ }', 'Get-Error',
  'if ($IsWindows) { 1 }', 'Join-Path a b c -AdditionalChildPath d', 'Start-Job { 1 } &', '"`u{2713}"', 'ConvertTo-Json -InputObject 1 -EnumsAsStrings',
  "function f { process { 1 } clean { 2 } }", '$ok = @{ a = 1 }; $ok.a',
];
for (const s of snippets) {
  const { check } = await h.request({ check: s });
  console.log(`${check.ok ? 'ok     ' : 'REFUSED'} ${s}  ${check.problems.map((p) => p.construct).join(', ')}${check.parseErrors.join('; ')}`);
}
await h.close();
