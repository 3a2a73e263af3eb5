// The one reader of user input files: a regular file within its kind's limit is read; anything
// else (a FIFO, a device, a socket, a directory, a link loop, a file over the limit) is refused
// with the reason and one message naming the file, without blocking and without reading it all.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  INVENTORY_FILE,
  InputFileError,
  type InputFileKind,
  inputPathKind,
  readInputFile,
} from '../../runner/core/read-input-file.js';

const dir = mkdtempSync(join(tmpdir(), 'play-read-input-'));
const at = (name: string) => join(dir, name);
let socket: Server;

test.before(async () => {
  writeFileSync(at('hosts.yaml'), 'all:\n  hosts:\n    a:\n');
  writeFileSync(at('ten.txt'), '0123456789');
  writeFileSync(at('empty.txt'), '');
  mkdirSync(at('adir'));
  execFileSync('mkfifo', [at('fifo')]);
  symlinkSync('loop2', at('loop1'));
  symlinkSync('loop1', at('loop2'));
  symlinkSync('/dev/zero', at('zero-link'));
  // Sparse: 65 MiB on paper, nothing on disk.
  writeFileSync(at('huge.yaml'), '');
  truncateSync(at('huge.yaml'), 65 * 1024 * 1024);
  socket = createServer();
  await new Promise<void>((resolve) => socket.listen(at('sock'), resolve));
});

test.after.always(() => {
  socket?.close();
  rmSync(dir, { recursive: true, force: true });
});

const TEN_BYTES: InputFileKind = { noun: 'a test file', maxBytes: 10, tooLargeHint: 'make it shorter' };
const NINE_BYTES: InputFileKind = { ...TEN_BYTES, maxBytes: 9 };

/** What reading gives: the text, or the refusal's reason and message (the directory shown as D). */
function outcome(file: string, kind: InputFileKind): { text: string } | { reason: string; message: string } {
  try {
    return { text: readInputFile(file, kind) };
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    return { reason: e.reason, message: e.message.replaceAll(dir, 'D') };
  }
}

const table: [string, string, InputFileKind, ReturnType<typeof outcome>][] = [
  ['a regular file', at('hosts.yaml'), INVENTORY_FILE, { text: 'all:\n  hosts:\n    a:\n' }],
  ['an empty file', at('empty.txt'), TEN_BYTES, { text: '' }],
  ['a file exactly at the limit', at('ten.txt'), TEN_BYTES, { text: '0123456789' }],
  [
    'a file one byte over the limit',
    at('ten.txt'),
    NINE_BYTES,
    {
      reason: 'too-large',
      message: 'D/ten.txt: is 10 bytes, more than the 9 bytes play reads from a test file: make it shorter',
    },
  ],
  [
    'a sparse file over the inventory limit (refused by its size, before reading)',
    at('huge.yaml'),
    INVENTORY_FILE,
    {
      reason: 'too-large',
      message:
        'D/huge.yaml: is 65 MiB, more than the 64 MiB play reads from an inventory file: ' +
        'split it into several files of an inventory directory',
    },
  ],
  [
    'a file that says size 0 but is longer (/proc): refused as it is read',
    '/proc/self/status',
    TEN_BYTES,
    {
      reason: 'too-large',
      message:
        '/proc/self/status: is larger than 10 bytes, more than the 10 bytes play reads from a test file: make it shorter',
    },
  ],
  [
    'a FIFO (opened without blocking, refused on its descriptor)',
    at('fifo'),
    INVENTORY_FILE,
    {
      reason: 'not-regular',
      message: 'D/fifo: is a named pipe (FIFO), not a regular file: expected an inventory file',
    },
  ],
  [
    '/dev/zero',
    '/dev/zero',
    INVENTORY_FILE,
    {
      reason: 'not-regular',
      message: '/dev/zero: is a character device, not a regular file: expected an inventory file',
    },
  ],
  [
    'a link to /dev/zero (named as given)',
    at('zero-link'),
    TEN_BYTES,
    { reason: 'not-regular', message: 'D/zero-link: is a character device, not a regular file: expected a test file' },
  ],
  [
    'a socket',
    at('sock'),
    TEN_BYTES,
    { reason: 'not-regular', message: 'D/sock: is a socket, not a regular file: expected a test file' },
  ],
  [
    'a directory',
    at('adir'),
    TEN_BYTES,
    { reason: 'directory', message: 'D/adir: is a directory: expected a test file' },
  ],
  [
    'a symbolic link loop',
    at('loop1'),
    TEN_BYTES,
    {
      reason: 'loop',
      message: 'D/loop1: is a symbolic link loop (a link that leads back to itself): remove it or point it at a file',
    },
  ],
  [
    'a missing file',
    at('nosuch'),
    TEN_BYTES,
    { reason: 'missing', message: 'D/nosuch: cannot read a test file (no such file)' },
  ],
  [
    'a path through a file',
    at('ten.txt/x'),
    TEN_BYTES,
    { reason: 'missing', message: 'D/ten.txt/x: cannot read a test file (no such file)' },
  ],
];

for (const [title, file, kind, expected] of table) {
  test(`readInputFile: ${title}`, (t) => {
    t.deepEqual(outcome(file, kind), expected);
  });
}

test('a refusal is an input error (exit 65) that keeps the system reason for callers to word', (t) => {
  const e = t.throws(() => readInputFile(at('nosuch'), TEN_BYTES), { instanceOf: InputFileError });
  t.deepEqual(
    { exitCode: e.exitCode, file: e.file, why: e.why, code: e.code },
    { exitCode: 65, file: at('nosuch'), why: 'no such file', code: 'ENOENT' },
  );
});

test('inputPathKind: what is at a path, following links; a loop is an error naming it', (t) => {
  const kinds = ['hosts.yaml', 'adir', 'fifo', 'zero-link', 'nosuch', 'ten.txt/x'].map((n) => inputPathKind(at(n)));
  t.deepEqual(kinds, ['file', 'directory', 'other', 'other', 'missing', 'missing']);
  const e = t.throws(() => inputPathKind(at('loop1')), { instanceOf: InputFileError });
  t.deepEqual(
    { reason: e.reason, message: e.message.replaceAll(dir, 'D') },
    {
      reason: 'loop',
      message: 'D/loop1: is a symbolic link loop (a link that leads back to itself): remove it or point it at a file',
    },
  );
});

test('a file that says size 0 (/proc) is read to its end when under the limit', (t) => {
  t.regex(readInputFile('/proc/self/status', INVENTORY_FILE), /^Name:\t.*\n(?:.*\n)*VmPeak:/);
});
