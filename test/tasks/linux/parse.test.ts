// The probes' output formats, read by their parsers: what a probe prints, and junk.
import test from 'ava';
import { Secret } from '../../../runner/core/secret.js';
import { command, directory, file, lineInFile, sysctl } from '../../../tasks/linux/index.js';
import { sha256Hex, type FsEntry } from '../../../tasks/linux/fs-probe.js';
import type { EditableFile } from '../../../tasks/linux/text-file.js';
import type { SysctlActual } from '../../../tasks/linux/sysctl.js';

const out = (stdout: string, code = 0, stderr = '') => ({ stdout, stderr, code });
const b64 = (s: string) => Buffer.from(s).toString('base64');

const dir = directory({ path: '/srv/a' });
const f = file({ path: '/etc/a.conf', content: 'x' });
const line = lineInFile({ path: '/etc/a.ini', line: 'x=1' });
const ctl = sysctl({ key: 'net.ipv4.ip_forward', value: 1, file: '/etc/sysctl.d/9.conf' });
const parseDir = (s: string) => dir.probe().parse(out(s)) as FsEntry | null;
const parseFile = (s: string) => f.probe().parse(out(s)) as FsEntry | null;

test('a directory given its owner or group by name asks for the names, and is refused a line without them', (t) => {
  const named = directory({ path: '/srv/a', owner: 'root', group: '4' });
  t.true(named.probe().script.text.includes('%U:%G'));
  t.false(dir.probe().script.text.includes('%U'), 'no names asked: none looked up');
  t.false(directory({ path: '/srv/a', owner: '0', group: '4' }).probe().script.text.includes('%U'), 'ids: no names');
  t.deepEqual((named.probe().parse(out('type directory\nstat 2755 0 1000 4096 root:UNKNOWN\n')) as FsEntry).stat, {
    mode: '2755',
    uid: '0',
    gid: '1000',
    owner: 'root',
    group: 'UNKNOWN',
    size: 4096,
  });
  t.throws(() => named.probe().parse(out('type directory\nstat 2755 0 1000 4096\n')), {
    message: /the stat line has no owner and group names/,
  });
});

test('directory: absent, directory with stat, and the other kinds', (t) => {
  t.is(parseDir('type absent\n'), null);
  // Names it did not ask for are left out (its probe prints none; a line with them still parses).
  t.deepEqual(parseDir('type directory\nstat 2755 0 1000 4096 root:UNKNOWN\n'), {
    type: 'directory',
    stat: { mode: '2755', uid: '0', gid: '1000', owner: null, group: null, size: 4096 },
    sha256: null,
    content: null,
  });
  t.deepEqual(
    parseDir('type directory\nstat 2755 0 1000 4096\n'),
    parseDir('type directory\nstat 2755 0 1000 4096 root:UNKNOWN\n'),
  );
  t.is(parseDir('type directory\nstat 755 0 0 4096 root:root\n')!.stat!.mode, '0755');
  t.is(parseDir('type file\nstat 644 0 0 3 root:root\n')!.type, 'file');
  t.deepEqual(parseDir('type symlink\n'), { type: 'symlink', stat: null, sha256: null, content: null });
  t.is(parseDir('type other\n')!.type, 'other');
});

test('file: small files come as base64 (digest computed here), large ones as a digest', (t) => {
  const small = parseFile(`type file\nstat 640 0 4 6 root:adm\nbase64\n${b64('hello\n')}\nend\n`)!;
  t.is(small.content!.toString(), 'hello\n');
  t.is(small.sha256, sha256Hex('hello\n'));
  t.is(small.stat!.mode, '0640');
  const empty = parseFile('type file\nstat 644 0 0 0 root:root\nbase64\nend\n')!;
  t.is(empty.content!.length, 0);
  t.is(empty.sha256, sha256Hex(''));
  const digest = 'a'.repeat(64);
  const large = parseFile(`type file\nstat 644 0 0 99999 root:root\nsha256 ${digest}  -\n`)!;
  t.is(large.sha256, digest);
  t.is(large.content, null);
  // base64(1) wraps at 76 columns: the lines are joined.
  const long = 'x'.repeat(200);
  const wrapped = b64(long)
    .match(/.{1,76}/g)!
    .join('\n');
  t.is(parseFile(`type file\nstat 644 0 0 200 root:root\nbase64\n${wrapped}\nend\n`)!.content!.toString(), long);
});

const junk: { name: string; stdout: string; message: RegExp }[] = [
  { name: 'nothing at all', stdout: '', message: /output ended where 'type' was expected/ },
  { name: 'an unknown type', stdout: 'type fifo\n', message: /unknown type "fifo"/ },
  { name: 'a foreign line', stdout: 'hello world\n', message: /expected 'type'/ },
  { name: 'stat missing (stat failed)', stdout: 'type file\n', message: /output ended where 'stat' was expected/ },
  { name: 'malformed stat', stdout: 'type file\nstat rw-r--r-- 0 0 root root 1\n', message: /malformed 'stat' line/ },
  {
    name: 'cut in the middle of the content',
    stdout: `type file\nstat 644 0 0 6 root:root\nbase64\n${b64('hello\n')}\n`,
    message: /output ended where base64 data or 'end' was expected/,
  },
  {
    name: 'not base64',
    stdout: 'type file\nstat 644 0 0 6 root:root\nbase64\nhello world!\nend\n',
    message: /not base64/,
  },
  {
    name: 'a short digest',
    stdout: 'type file\nstat 644 0 0 6 root:root\nsha256 abc  -\n',
    message: /malformed 'sha256' line/,
  },
  { name: 'trailing junk', stdout: 'type absent\nextra\n', message: /unexpected line "extra"/ },
];

for (const row of junk) {
  test(`file probe: junk is an error: ${row.name}`, (t) => {
    const err = t.throws(() => parseFile(row.stdout));
    t.regex(err!.message, row.message);
    t.true(err!.message.startsWith('file /etc/a.conf: '), err!.message);
  });
}

test('parse errors quote the exit status and stderr', (t) => {
  const err = t.throws(() => f.probe().parse(out('type file\n', 1, 'stat: cannot statx: Permission denied\n')));
  t.regex(err!.message, /exit 1, stderr: stat: cannot statx: Permission denied/);
});

test('lineInFile: the text of a file; refuses binary and oversized files', (t) => {
  const parse = (s: string) => line.probe().parse(out(s)) as EditableFile | null;
  t.is(parse('type absent\n'), null);
  t.is(parse(`type file\nstat 644 0 0 4 root:root\nbase64\n${b64('a=1\n')}\nend\n`)!.text, 'a=1\n');
  t.is(parse('type directory\nstat 755 0 0 4096 root:root\n')!.text, null);
  t.regex(
    t.throws(() =>
      parse(`type file\nstat 644 0 0 3 root:root\nbase64\n${Buffer.from([0x61, 0, 0x62]).toString('base64')}\nend\n`),
    )!.message,
    /not UTF-8 text/,
  );
  t.regex(
    t.throws(() =>
      parse(
        `type file\nstat 644 0 0 3 root:root\nbase64\n${Buffer.from([0xff, 0xfe, 0x41]).toString('base64')}\nend\n`,
      ),
    )!.message,
    /not UTF-8 text/,
  );
  t.regex(
    t.throws(() => parse(`type file\nstat 644 0 0 5000000 root:root\nsha256 ${'b'.repeat(64)}  -\n`))!.message,
    /5000000 bytes; files are edited up to 1048576 bytes/,
  );
});

test('sysctl: live value (normalized), absent, unreadable; the persisted value from the file', (t) => {
  const parse = (s: string) => ctl.probe().parse(out(s)) as SysctlActual;
  const live = (kernel: string) => `live-base64\n${b64(kernel)}\nend\n`;
  const conf = 'net.ipv4.ip_forward = 0\n';
  const a = parse(`${live('1\n')}type file\nstat 644 0 0 ${conf.length} root:root\nbase64\n${b64(conf)}\nend\n`);
  t.is(a.live, '1');
  t.is(a.persisted, '0');
  t.is(a.file!.text, conf);
  t.deepEqual(parse('live-absent\ntype absent\n'), { live: null, persisted: null, file: null });
  t.is(parse(`${live('32768\t60999\n')}type absent\n`).live, '32768 60999');
  t.is(parse(`${live('0\n')}type absent\n`).live, '0');
  for (const unreadable of ['live-unreadable\ntype absent\n', 'live-base64\n\nend\nlive-unreadable\ntype absent\n'])
    t.regex(t.throws(() => parse(unreadable))!.message, /cannot read \/proc\/sys\/net\/ipv4\/ip_forward/);
  t.regex(t.throws(() => parse('type absent\n'))!.message, /expected 'live-base64', got "type absent"/);
  t.regex(t.throws(() => parse(live('1\n')))!.message, /output ended where 'type' was expected/);
  t.regex(
    t.throws(() => parse('live-base64\nMQo=\n'))!.message,
    /output ended where base64 data or 'end' was expected/,
  );
});

test('sysctl: the live value has its whitespace collapsed and trimmed by the parser', (t) => {
  // The kernel's text of the parameter, as read whole; the base64 section may end with an empty
  // line (the probe prints `end` on a line of its own).
  const rows: [string, string][] = [
    ['32768\t60999\n', '32768 60999'], // tabs, as the kernel prints a multi-value key
    ['4 \t4  1\t\t7   \n', '4 4 1 7'], // runs of spaces and tabs
    ['reno cubic\nbbr\n', 'reno cubic bbr'], // a value spanning lines
    ['\n', ''], // an empty value
    ['', ''],
    ['1', '1'], // no newline at the end
  ];
  const parse = (s: string) => (ctl.probe().parse(out(s)) as SysctlActual).live;
  t.deepEqual(
    rows.map(([kernel]) => parse(`live-base64\n${b64(kernel)}\n\nend\ntype absent\n`)),
    rows.map(([, live]) => live),
  );
});

test('command: creates present/absent; no output without creates', (t) => {
  const guarded = command({ command: ['true'], creates: '/done' });
  const state = (createsExists: boolean) => ({ createsExists, removesExists: null, unlessCode: null });
  t.deepEqual(guarded.probe().parse(out('creates present\n')), state(true));
  t.deepEqual(guarded.probe().parse(out('creates absent\n')), state(false));
  t.regex(t.throws(() => guarded.probe().parse(out('creates maybe\n')))!.message, /unknown state "maybe"/);
  t.regex(t.throws(() => guarded.probe().parse(out('')))!.message, /output ended/);
  const plain = command({ command: 'true' });
  t.is(plain.probe().parse(out('')), null);
  t.regex(t.throws(() => plain.probe().parse(out('surprise\n')))!.message, /unexpected line/);
});

test('probe scripts never exit and never read stdin (they are batched)', (t) => {
  const scripts = [dir, f, line, ctl, command({ command: 'true', creates: '/x' })].map((s) => s.probe().script.text);
  for (const s of scripts) {
    t.notRegex(s, /\bexit\b/);
    t.notRegex(s, /\bread\b/);
    t.notRegex(s, /(^|[;\n]\s*)cat(\s*$|\s*[;|&])/m);
  }
});

test('file with secret content: the probe fetches only a digest, never the old content', (t) => {
  const secret = file({ path: '/etc/token', content: new Secret('hunter22', 'env:T') });
  t.regex(secret.probe().script.text, /-le 0 \]/);
  t.regex(f.probe().script.text, /-le 65536 \]/);
  const digest = 'c'.repeat(64);
  t.is(
    (secret.probe().parse(out(`type file\nstat 600 0 0 8 root:root\nsha256 ${digest}  -\n`)) as FsEntry).content,
    null,
  );
});
