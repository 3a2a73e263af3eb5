// windows.command's command line: the splitting we check our quoting against reproduces Microsoft's
// own table ("Parsing C++ command-line arguments", Microsoft C/C++ docs: "Results of parsing command
// lines"), and the line windows.command builds for an argv splits back into exactly that argv.
import test from 'ava';
import { commandLineOf } from '../../../tasks/windows/command.js';
import { parseWindowsCommandLine, quoteWindowsArg } from '../../../tasks/windows/remote/ps-native.js';

// Microsoft's table, row by row: the command line (after the program name) and argv[1..].
const MICROSOFT: [line: string, argv: string[]][] = [
  ['"abc" d e', ['abc', 'd', 'e']],
  ['a\\\\b d"e f"g h', ['a\\\\b', 'de fg', 'h']],
  ['a\\\\\\"b c d', ['a\\"b', 'c', 'd']],
  ['a\\\\\\\\"b c" d e', ['a\\\\b c', 'd', 'e']],
  ['a"b"" c d', ['ab" c d']],
];

test("the splitting reproduces Microsoft's table of parsed command lines", (t) => {
  t.deepEqual(
    MICROSOFT.map(([line]) => parseWindowsCommandLine(line)),
    MICROSOFT.map(([, argv]) => argv),
  );
});

// How each argument is written: quoted only when it must be; backslashes doubled only before a quote.
const QUOTED: [arg: string, written: string][] = [
  ['abc', 'abc'],
  ['', '""'],
  ['a b', '"a b"'],
  ['a\tb', '"a\tb"'],
  ['a"b', '"a\\"b"'],
  ['a\\b', 'a\\b'],
  ['C:\\Program Files\\k\\', '"C:\\Program Files\\k\\\\"'],
  ['a\\"b', '"a\\\\\\"b"'],
  ['\\\\server\\share', '\\\\server\\share'],
  ['"', '"\\""'],
  ['%PATH% ^& $(x)', '"%PATH% ^& $(x)"'],
];

test('each argument is written by the C runtime rules, and reads back as itself', (t) => {
  t.deepEqual(
    QUOTED.map(([arg]) => quoteWindowsArg(arg)),
    QUOTED.map(([, written]) => written),
  );
  for (const [, argv] of MICROSOFT) t.deepEqual(parseWindowsCommandLine(argv.map(quoteWindowsArg).join(' ')), argv);
});

test("windows.command's line: the program, then each argument quoted", (t) => {
  const rows: [exe: string, args: string[], line: string][] = [
    ['w32tm.exe', ['/resync'], 'w32tm.exe /resync'],
    ['C:\\Program Files\\k\\tool.exe', [], '"C:\\Program Files\\k\\tool.exe"'],
    ['C:\\k\\t.exe', ['', 'a b\\', 'x"y'], 'C:\\k\\t.exe "" "a b\\\\" "x\\"y"'],
  ];
  t.deepEqual(
    rows.map(([exe, args]) => commandLineOf({ exe, args })),
    rows.map(([, , line]) => line),
  );
});
