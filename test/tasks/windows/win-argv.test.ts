// How an argument reaches sc.exe or nssm.exe: quoteWindowsArg (the TypeScript twin of Invoke-Native's
// loop in ps-native.ts) against an independent implementation of the C runtime's command-line
// splitting; and that the PowerShell loop is the same algorithm, step for step.
import test from 'ava';
import {
  INVOKE_NATIVE,
  parseWindowsCommandLine,
  quoteWindowsArg,
  windowsCommandLine,
} from '../../../tasks/windows/remote/ps-native.js';

const BIN_PATHS = [
  'C:\\k\\kubelet.exe --windows-service',
  '"C:\\Program Files\\k\\kubelet.exe" --resolv-conf="" --enforce-node-allocatable="" --windows-service',
  'C:\\k\\kube-proxy.exe --feature-gates="WinOverlay=true,WinDSR=true" --log-dir=C:\\k\\log\\',
];

const HOSTILE = [
  '',
  ' ',
  '"',
  '\\',
  '\\\\',
  'a\\',
  'a\\\\',
  '\\"',
  'a b\\',
  "x'; rm -rf / #",
  '$(reboot)',
  '`whoami`',
  'a\tb',
  'line\nbreak',
  '‘quoted’',
  '%PATH%',
  '^&|<>',
  'ünïcødé 节点',
];

test('every argument survives the round trip through a C runtime command line', (t) => {
  for (const arg of [...BIN_PATHS, ...HOSTILE]) {
    t.deepEqual(parseWindowsCommandLine(quoteWindowsArg(arg)), [arg], JSON.stringify(arg));
  }
  const argv = [
    'create',
    'kubelet',
    'binPath=',
    BIN_PATHS[1]!,
    'depend=',
    'docker',
    'DisplayName=',
    'Kubernetes Node Agent',
    'start=',
    'auto',
  ];
  t.deepEqual(parseWindowsCommandLine(windowsCommandLine(argv)), argv);
  t.deepEqual(parseWindowsCommandLine(windowsCommandLine(HOSTILE)), HOSTILE);
});

test("how a binPath with spaces and quotes is written on sc.exe's command line", (t) => {
  t.is(
    quoteWindowsArg(BIN_PATHS[1]!),
    '"\\"C:\\Program Files\\k\\kubelet.exe\\" --resolv-conf=\\"\\" --enforce-node-allocatable=\\"\\" --windows-service"',
  );
  t.is(quoteWindowsArg('C:\\k\\kubelet.exe'), 'C:\\k\\kubelet.exe'); // nothing to quote: left alone
  t.is(quoteWindowsArg('C:\\dir with space\\'), '"C:\\dir with space\\\\"'); // a trailing backslash doubled before the closing quote
  t.is(quoteWindowsArg(''), '""');
});

test('the parser of the oracle knows the C runtime rules (so the round trip could fail)', (t) => {
  t.deepEqual(parseWindowsCommandLine('a "b c" d'), ['a', 'b c', 'd']);
  t.deepEqual(parseWindowsCommandLine('"a\\"b"'), ['a"b']);
  t.deepEqual(parseWindowsCommandLine('a\\\\"b c"'), ['a\\b c']);
  t.deepEqual(parseWindowsCommandLine('a\\b'), ['a\\b']);
  t.deepEqual(parseWindowsCommandLine('"a""b"'), ['a"b']);
  t.deepEqual(parseWindowsCommandLine('  ""  x'), ['', 'x']);
  // PowerShell 5.1's own way (quotes wrapped around, inner quotes left alone) splits a binPath apart:
  t.notDeepEqual(parseWindowsCommandLine(`"${BIN_PATHS[1]}"`), [BIN_PATHS[1]]);
});

test('Invoke-Native quotes with the same rules, and starts the program without a shell', (t) => {
  // The steps of quoteWindowsArg, as they appear in the PowerShell loop.
  t.regex(INVOKE_NATIVE, /\$special = \[char\[\]\]@\(\[char\]32, \[char\]9, \[char\]10, \[char\]11, \$dq\)/); // space, tab, LF, VT, quote
  t.regex(INVOKE_NATIVE, /if \(\$arg\.Length -gt 0 -and \$arg\.IndexOfAny\(\$special\) -lt 0\)/);
  t.regex(
    INVOKE_NATIVE,
    /if \(\$ch -eq \$dq\) \{ \[void\]\$sb\.Append\(\$bs, 2 \* \$slashes \+ 1\) \} else \{ \[void\]\$sb\.Append\(\$bs, \$slashes\) \}/,
  );
  t.regex(INVOKE_NATIVE, /\[void\]\$sb\.Append\(\$bs, 2 \* \$slashes\)\n\s+\[void\]\$sb\.Append\(\$dq\)/);
  t.regex(INVOKE_NATIVE, /\$psi\.Arguments = \$quoted -join ' '/);
  t.regex(INVOKE_NATIVE, /\$psi\.UseShellExecute = \$false/);
  t.notRegex(INVOKE_NATIVE, /cmd(\.exe)? \/c/i);
});
