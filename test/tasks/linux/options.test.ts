import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { isSecret, Secret } from '../../../runner/core/secret.js';
import { command, directory, file, lineInFile, sysctl } from '../../../tasks/linux/index.js';

type Factory = (o: any) => unknown;

const errors: { name: string; make: Factory; options: unknown; field: string; message: RegExp }[] = [
  { name: 'options not an object', make: directory, options: '/srv', field: '(options)', message: /must be an object/ },
  {
    name: 'directory: unknown option',
    make: directory,
    options: { path: '/srv', recurse: true },
    field: 'recurse',
    message: /not an option of linux\.directory/,
  },
  {
    name: 'directory: path missing',
    make: directory,
    options: {},
    field: 'path',
    message: /must be a string, got nothing/,
  },
  {
    name: 'directory: relative path',
    make: directory,
    options: { path: 'srv/x' },
    field: 'path',
    message: /absolute path/,
  },
  {
    name: 'directory: path of wrong type',
    make: directory,
    options: { path: 42 },
    field: 'path',
    message: /must be a string, got number 42/,
  },
  {
    name: 'directory: bad mode',
    make: directory,
    options: { path: '/srv', mode: 'rwx' },
    field: 'mode',
    message: /octal mode/,
  },
  {
    name: 'directory: a number as mode (644 would be decimal)',
    make: directory,
    options: { path: '/srv', mode: 644 },
    field: 'mode',
    message: /written as a string such as '0644'/,
  },
  {
    name: "directory: an owner with a colon (chown's owner:group)",
    make: directory,
    options: { path: '/srv', owner: 'root:root' },
    field: 'owner',
    message: /user or group name/,
  },
  {
    name: 'directory: group of wrong type',
    make: directory,
    options: { path: '/srv', group: 0 },
    field: 'group',
    message: /must be a string/,
  },
  {
    name: 'file: unknown option',
    make: file,
    options: { path: '/f', content: '', backup: true },
    field: 'backup',
    message: /not an option/,
  },
  {
    name: 'file: neither content nor template',
    make: file,
    options: { path: '/f' },
    field: 'content',
    message: /is required/,
  },
  {
    name: 'file: both content and template',
    make: file,
    options: { path: '/f', content: 'a', template: 'b' },
    field: 'template',
    message: /cannot be combined/,
  },
  {
    name: 'file: content of wrong type',
    make: file,
    options: { path: '/f', content: 12 },
    field: 'content',
    message: /must be a string/,
  },
  {
    name: 'file: vars without template',
    make: file,
    options: { path: '/f', content: 'a', vars: {} },
    field: 'vars',
    message: /only used with template/,
  },
  {
    name: 'file: vars not an object',
    make: file,
    options: { path: '/f', template: 'a', vars: [1] },
    field: 'vars',
    message: /must be an object/,
  },
  {
    name: 'file: a var of wrong type',
    make: file,
    options: { path: '/f', template: '{{ a }}', vars: { a: { nested: 1 } } },
    field: 'vars.a',
    message: /must be a string, number, boolean or secret/,
  },
  {
    name: 'file: a missing var names it',
    make: file,
    options: { path: '/f', template: 'port={{ port }}', vars: { prot: 1 } },
    field: 'vars',
    message: /no value for \{\{ port \}\}/,
  },
  {
    name: 'file: the root directory is not a file',
    make: file,
    options: { path: '/', content: '' },
    field: 'path',
    message: /not \//,
  },
  {
    name: 'file: relative path',
    make: file,
    options: { path: './f', content: '' },
    field: 'path',
    message: /absolute path/,
  },
  {
    name: 'lineInFile: line missing',
    make: lineInFile,
    options: { path: '/f' },
    field: 'line',
    message: /must be a string, got nothing/,
  },
  {
    name: 'lineInFile: line with a newline',
    make: lineInFile,
    options: { path: '/f', line: 'a\nb' },
    field: 'line',
    message: /one line/,
  },
  {
    name: 'lineInFile: invalid regexp',
    make: lineInFile,
    options: { path: '/f', line: 'a', regexp: '(unclosed' },
    field: 'regexp',
    message: /not a valid JavaScript regular expression/,
  },
  {
    name: 'lineInFile: Python named group is not JavaScript',
    make: lineInFile,
    options: { path: '/f', line: 'a', regexp: '(?P<x>a)' },
    field: 'regexp',
    message: /not a valid JavaScript/,
  },
  {
    name: 'lineInFile: empty regexp',
    make: lineInFile,
    options: { path: '/f', line: 'a', regexp: '' },
    field: 'regexp',
    message: /must not be empty/,
  },
  {
    name: 'lineInFile: create not boolean',
    make: lineInFile,
    options: { path: '/f', line: 'a', create: 'yes' },
    field: 'create',
    message: /true or false/,
  },
  {
    name: 'lineInFile: unknown option',
    make: lineInFile,
    options: { path: '/f', line: 'a', state: 'absent' },
    field: 'state',
    message: /not an option/,
  },
  {
    name: 'command: missing',
    make: command,
    options: {},
    field: 'command',
    message: /argv array of strings or a shell string, got nothing/,
  },
  {
    name: 'command: empty argv',
    make: command,
    options: { command: [] },
    field: 'command',
    message: /at least the program name/,
  },
  {
    name: 'command: argv element of wrong type',
    make: command,
    options: { command: ['ls', 3] },
    field: 'command[1]',
    message: /must be a string, got number/,
  },
  {
    name: 'command: argv[0] is an option',
    make: command,
    options: { command: ['-rf'] },
    field: 'command[0]',
    message: /program name/,
  },
  {
    name: 'command: empty string',
    make: command,
    options: { command: '  ' },
    field: 'command',
    message: /must not be empty/,
  },
  {
    name: 'command: relative creates',
    make: command,
    options: { command: 'true', creates: 'done' },
    field: 'creates',
    message: /absolute path/,
  },
  {
    name: 'command: relative chdir',
    make: command,
    options: { command: 'true', chdir: 'tmp' },
    field: 'chdir',
    message: /absolute path/,
  },
  {
    name: 'command: unknown option',
    make: command,
    options: { command: 'true', onlyIf: '/x' },
    field: 'onlyIf',
    message: /not an option/,
  },
  { name: 'sysctl: key missing', make: sysctl, options: { value: 1 }, field: 'key', message: /must be a string/ },
  {
    name: 'sysctl: key not dotted',
    make: sysctl,
    options: { key: 'ip_forward', value: 1 },
    field: 'key',
    message: /dotted kernel parameter name/,
  },
  {
    name: 'sysctl: key with a path traversal',
    make: sysctl,
    options: { key: 'net/../../etc', value: 1 },
    field: 'key',
    message: /dotted/,
  },
  {
    name: 'sysctl: value missing',
    make: sysctl,
    options: { key: 'net.ipv4.ip_forward' },
    field: 'value',
    message: /got nothing/,
  },
  {
    name: 'sysctl: value boolean',
    make: sysctl,
    options: { key: 'net.ipv4.ip_forward', value: true },
    field: 'value',
    message: /string or a number/,
  },
  {
    name: 'sysctl: value fraction',
    make: sysctl,
    options: { key: 'vm.swappiness', value: 1.5 },
    field: 'value',
    message: /integer/,
  },
  {
    name: 'sysctl: empty value',
    make: sysctl,
    options: { key: 'vm.swappiness', value: ' \t' },
    field: 'value',
    message: /must not be empty/,
  },
  {
    name: 'sysctl: relative file',
    make: sysctl,
    options: { key: 'vm.swappiness', value: 1, file: 'x.conf' },
    field: 'file',
    message: /absolute path/,
  },
  {
    name: 'sysctl: unknown option',
    make: sysctl,
    options: { key: 'vm.swappiness', value: 1, reload: true },
    field: 'reload',
    message: /not an option/,
  },
];

for (const row of errors) {
  test(`options: ${row.name}`, (t) => {
    const err = t.throws(() => row.make(row.options), { instanceOf: StepOptionError });
    t.is(err!.field, row.field);
    t.regex(err!.message, row.message);
    t.true(err!.message.includes(`option '${row.field}'`), err!.message);
  });
}

test('directory: desired is normalized and frozen', (t) => {
  const s = directory({ path: '/srv/app/', mode: '750', owner: 'root' });
  t.deepEqual({ ...s.desired }, { path: '/srv/app', exists: true, mode: '0750', owner: 'root', group: undefined });
  t.true(Object.isFrozen(s.desired));
  t.is(s.kind, 'linux.directory');
  t.is(s.title, 'directory /srv/app');
});

test('file: template fills {{ name }} once, as text; other braces stay', (t) => {
  const s = file({
    path: '/f',
    template: 'a={{ a }} b={{b}} c={{ .C }} again={{ a }}\n',
    vars: { a: '{{ b }}', b: 0 },
  });
  t.is(s.desired.content, 'a={{ b }} b=0 c={{ .C }} again={{ b }}\n');
  t.is(s.desired.size, Buffer.byteLength(s.desired.content as string));
});

test('file: a secret var makes the content a secret', (t) => {
  const s = file({ path: '/f', template: 'password={{ pw }}\n', vars: { pw: new Secret('hunter22', 'env:PW') } });
  t.true(isSecret(s.desired.content));
  t.false(JSON.stringify(s.desired).includes('hunter22'));
});

test('lineInFile: defaults and frozen desired', (t) => {
  const s = lineInFile({ path: '/f', line: 'a' });
  t.deepEqual({ ...s.desired }, { path: '/f', line: 'a', regexp: undefined, create: false });
  t.true(Object.isFrozen(s.desired));
});

test('command: argv is copied and frozen; converges only with creates', (t) => {
  const argv = ['touch', '/x'];
  const s = command({ command: argv, creates: '/x' });
  argv.push('/y');
  t.deepEqual(s.desired.argv, ['touch', '/x']);
  t.true(Object.isFrozen(s.desired.argv));
  t.true(s.converges);
  t.false(command({ command: 'true' }).converges);
});

test('sysctl: numbers become text (0 included), whitespace is normalized, default file', (t) => {
  t.deepEqual(
    { ...sysctl({ key: 'net.ipv4.ip_forward', value: 0 }).desired },
    { key: 'net.ipv4.ip_forward', value: '0', file: '/etc/sysctl.d/99-play.conf' },
  );
  t.is(sysctl({ key: 'net.ipv4.ip_local_port_range', value: '32768\t 60999 ' }).desired.value, '32768 60999');
});

test('building a step does no I/O: a nonexistent path is fine', (t) => {
  t.notThrows(() => file({ path: '/nonexistent/dir/f', content: 'x' }));
  t.notThrows(() => lineInFile({ path: '/nonexistent/f', line: 'x' }));
});
