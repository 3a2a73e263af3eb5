// service: options, the probe outputs of both managers as their parsers read them, and the pure diff.
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { keepalivedPidfile } from '../../../tasks/linux/keepalived-pidfile.js';
import { diffService, service, type ServiceActual } from '../../../tasks/linux/service.js';
import { systemdActionScript } from '../../../tasks/linux/service-systemd.js';

const out = (stdout: string) => ({ stdout, stderr: '', code: 0 });
const pidfile = keepalivedPidfile({ runDir: '/etc/keepalived/run' });
const onPidfile = service({ name: 'keepalived', state: 'running', pidfile });
const parsePidfile = (s: string) => onPidfile.probe().parse(out(`manager pidfile\n${s}`)) as ServiceActual;
const parseSystemd = (s: string) => onPidfile.probe().parse(out(`manager systemd\n${s}`)) as ServiceActual;
const EXE = 'expect /usr/sbin/keepalived\n';

test('keepalivedPidfile: every pidfile on the per-host path, foreground, logging to a file', (t) => {
  t.deepEqual(pidfile, {
    command: [
      '/usr/sbin/keepalived',
      '-n',
      '-l',
      '-D',
      '-f',
      '/etc/keepalived/keepalived.conf',
      '-p',
      '/etc/keepalived/run/keepalived.pid',
      '-r',
      '/etc/keepalived/run/vrrp.pid',
      '-c',
      '/etc/keepalived/run/checkers.pid',
      '-b',
      '/etc/keepalived/run/bfd.pid',
    ],
    pidFile: '/etc/keepalived/run/keepalived.pid',
    extraPidFiles: ['/etc/keepalived/run/vrrp.pid', '/etc/keepalived/run/checkers.pid', '/etc/keepalived/run/bfd.pid'],
    logFile: '/etc/keepalived/run/keepalived.log',
    exe: '/usr/sbin/keepalived',
  });
  t.false(keepalivedPidfile({ runDir: '/r', bfd: false }).command.includes('-b'));
});

const pidfileCases: { name: string; stdout: string; running: boolean; pid: number | null; detail: RegExp }[] = [
  {
    name: 'live, ours',
    stdout: `${EXE}pid 4242\nexe /usr/sbin/keepalived\nnetns same\n`,
    running: true,
    pid: 4242,
    detail: /^pid 4242$/,
  },
  {
    name: 'live, binary replaced by an upgrade',
    stdout: `${EXE}pid 7\nexe /usr/sbin/keepalived (deleted)\nnetns same\n`,
    running: true,
    pid: 7,
    detail: /pid 7/,
  },
  {
    name: 'no pidfile',
    stdout: `${EXE}pid none\n`,
    running: false,
    pid: null,
    detail: /^no pidfile \/etc\/keepalived\/run\/keepalived\.pid$/,
  },
  { name: 'pidfile without a pid', stdout: `${EXE}pid bad\n`, running: false, pid: null, detail: /holds no pid/ },
  {
    name: 'dead pid or zombie (no exe link)',
    stdout: `${EXE}pid 99\nexe \nnetns unknown\n`,
    running: false,
    pid: null,
    detail: /pid 99 from .* is not running/,
  },
  {
    name: 'reused pid: another program',
    stdout: `${EXE}pid 99\nexe /usr/bin/sleep\nnetns same\n`,
    running: false,
    pid: null,
    detail: /is \/usr\/bin\/sleep, not \/usr\/sbin\/keepalived \(a stale pidfile\)/,
  },
  {
    name: 'keepalived of another host (namespace)',
    stdout: `${EXE}pid 99\nexe /usr/sbin/keepalived\nnetns other\n`,
    running: false,
    pid: null,
    detail: /runs in another network namespace/,
  },
  {
    name: 'keepalived not installed',
    stdout: `expect \npid 99\nexe /usr/sbin/keepalived\nnetns same\n`,
    running: false,
    pid: null,
    detail: /not installed/,
  },
];

for (const c of pidfileCases) {
  test(`pidfile probe: ${c.name}`, (t) => {
    const a = parsePidfile(c.stdout);
    t.like(a, { manager: 'pidfile', running: c.running, pid: c.pid, enabled: null });
    t.regex(a.detail, c.detail);
  });
}

test('pidfile probe: junk is an error', (t) => {
  t.throws(() => parsePidfile(`${EXE}pid 12x\n`), { message: /malformed pid/ });
  t.throws(() => parsePidfile(`${EXE}pid 12\nexe /x\nnetns maybe\n`), { message: /unknown netns state/ });
  t.throws(() => parsePidfile(`${EXE}pid none\nextra\n`), { message: /unexpected line "extra"/ });
  t.throws(() => onPidfile.probe().parse(out('manager upstart\n')), { message: /unexpected manager "upstart"/ });
});

test('systemd probe: active/enabled words, MainPID, a missing unit', (t) => {
  const unit = (running: boolean, pid: number | null, enabled: boolean, detail: string, missing = false) => ({
    manager: 'systemd',
    running,
    pid,
    enabled,
    missing,
    detail,
  });
  t.deepEqual(
    parseSystemd('load loaded\nactive active\nenabled enabled\nmainpid 321\n'),
    unit(true, 321, true, 'active, enabled'),
  );
  t.deepEqual(
    parseSystemd('load loaded\nactive reloading\nenabled static\nmainpid 5\n'),
    unit(true, 5, true, 'reloading, static'),
  );
  t.deepEqual(
    parseSystemd('load loaded\nactive failed\nenabled disabled\nmainpid 0\n'),
    unit(false, null, false, 'failed, disabled'),
  );
  t.deepEqual(
    parseSystemd('load loaded\nactive activating\nenabled masked\nmainpid 0\n'),
    unit(false, null, false, 'activating, masked'),
  );
  t.deepEqual(
    parseSystemd('load not-found\nactive inactive\nenabled \nmainpid 0\n'),
    unit(false, null, false, 'inactive, unknown', true),
  );
  t.throws(() => parseSystemd('load loaded\nactive active\nenabled enabled\nmainpid x\n'), {
    message: /malformed MainPID/,
  });
});

test('no usable manager: the reason from the probe, and a warning', (t) => {
  const a = onPidfile.probe().parse(out('manager none systemd is not running on this host\n')) as ServiceActual;
  t.deepEqual(a, {
    manager: null,
    running: false,
    pid: null,
    enabled: null,
    detail: 'systemd is not running on this host',
  });
  t.deepEqual(onPidfile.diff(onPidfile.desired, a).warnings, ['systemd is not running on this host: apply will fail']);
});

const sd = (o: Partial<ServiceActual>): ServiceActual => ({
  manager: 'systemd',
  running: false,
  pid: null,
  enabled: false,
  detail: 'inactive, disabled',
  ...o,
});
const pf = (o: Partial<ServiceActual>): ServiceActual => ({
  manager: 'pidfile',
  running: false,
  pid: null,
  enabled: null,
  detail: 'no pidfile /p',
  ...o,
});
const desired = (o: object) => service({ name: 'keepalived', state: 'running', pidfile, ...o }).desired;

test('diff: start, stop, enable, restart, noop', (t) => {
  t.deepEqual(diffService(desired({}), pf({})), {
    action: 'update',
    fields: ['state'],
    before: { state: 'stopped (no pidfile /p)' },
    after: { state: 'running' },
  });
  t.deepEqual(diffService(desired({ state: 'stopped' }), pf({ running: true, pid: 4, detail: 'pid 4' })), {
    action: 'update',
    fields: ['state'],
    before: { state: 'running (pid 4)' },
    after: { state: 'stopped' },
  });
  t.is(diffService(desired({}), pf({ running: true, pid: 4 })).action, 'noop');
  t.is(diffService(desired({ state: 'stopped' }), pf({})).action, 'noop');
  t.deepEqual(diffService(desired({ enabled: true }), sd({})), {
    action: 'update',
    fields: ['state', 'enabled'],
    before: { state: 'stopped (inactive, disabled)', enabled: false },
    after: { state: 'running', enabled: true },
  });
  t.deepEqual(diffService(desired({ enabled: false }), sd({ running: true, enabled: true })).fields, ['enabled']);
  // restart: only a running service is restarted; a stopped one is simply started.
  t.deepEqual(diffService(desired({ restart: true }), pf({ running: true, pid: 4 })), {
    action: 'run',
    fields: ['restart'],
    before: { restart: 'pid 4' },
    after: { restart: 'restarted' },
  });
  t.deepEqual(diffService(desired({ restart: true }), pf({})).fields, ['state']);
});

test('diff: enabled with the pidfile manager warns and never fails; a missing unit warns', (t) => {
  const c = diffService(desired({ enabled: true }), pf({ running: true, pid: 4 }));
  t.is(c.action, 'noop');
  t.deepEqual(c.warnings, [
    'enabled has no meaning for the pidfile manager (nothing starts the daemon at boot without systemd): ignored',
  ]);
  t.regex(diffService(desired({}), sd({ missing: true })).warnings![0]!, /systemd has no unit keepalived on this host/);
});

test('a restart step does not converge by design; others do', (t) => {
  t.false(service({ name: 'k', state: 'running', restart: true, pidfile }).converges);
  t.true(service({ name: 'k', state: 'running', pidfile }).converges);
});

test('outputs: the pid of a running service, else null', (t) => {
  t.deepEqual(onPidfile.outputs!(onPidfile.desired, pf({ running: true, pid: 77 })), { pid: 77 });
  t.deepEqual(onPidfile.outputs!(onPidfile.desired, pf({})), { pid: null });
});

test('probe scripts: systemd detection unless forced; the pidfile-only script never asks systemd', (t) => {
  t.true(onPidfile.probe().script.text.startsWith('if [ -d /run/systemd/system ]; then'));
  const forced = service({ name: 'keepalived', state: 'running', manager: 'pidfile', pidfile }).probe().script.text;
  t.false(forced.includes('systemctl'));
  t.true(forced.startsWith("echo 'manager pidfile'"));
  const systemdOnly = service({ name: 'keepalived', state: 'running', manager: 'systemd' }).probe().script.text;
  t.true(systemdOnly.includes("echo 'manager none systemd is not running on this host'"));
  t.false(systemdOnly.includes('readlink'));
});

test('systemd actions: enable --now when both, separate commands otherwise, then an active check', (t) => {
  const lines = (p: Parameters<typeof systemdActionScript>[1]) => systemdActionScript('keepalived', p).text.split('\n');
  t.deepEqual(lines({ start: true, enable: true, expectRunning: true }).slice(0, 2), [
    'set -e',
    'systemctl enable --now keepalived',
  ]);
  t.deepEqual(lines({ stop: true, enable: false, expectRunning: false }), [
    'set -e',
    'systemctl disable --now keepalived',
    ':',
  ]);
  t.deepEqual(lines({ enable: true, restart: true, expectRunning: true }).slice(0, 3), [
    'set -e',
    'systemctl enable keepalived',
    'systemctl restart keepalived',
  ]);
  t.true(
    lines({ start: true, expectRunning: true }).includes(
      'if ! systemctl is-active --quiet keepalived; then systemctl status --no-pager --lines=20 keepalived >&2; exit 1; fi',
    ),
  );
});

const errors: { name: string; options: unknown; field: string; message: RegExp }[] = [
  {
    name: 'name with a space',
    options: { name: 'keep alived', state: 'running' },
    field: 'name',
    message: /service \(unit\) name/,
  },
  { name: 'name as an option', options: { name: '--all', state: 'running' }, field: 'name', message: /unit\) name/ },
  {
    name: 'state started',
    options: { name: 'k', state: 'started' },
    field: 'state',
    message: /'running' or 'stopped', got "started"/,
  },
  {
    name: 'restart of a stopped service',
    options: { name: 'k', state: 'stopped', restart: true },
    field: 'restart',
    message: /needs state 'running'/,
  },
  {
    name: 'unknown manager',
    options: { name: 'k', state: 'running', manager: 'sysv' },
    field: 'manager',
    message: /'auto', 'systemd' or 'pidfile'/,
  },
  {
    name: 'pidfile manager without options',
    options: { name: 'k', state: 'running', manager: 'pidfile' },
    field: 'pidfile',
    message: /is required/,
  },
  {
    name: 'enabled as a string',
    options: { name: 'k', state: 'running', enabled: 'yes' },
    field: 'enabled',
    message: /true or false/,
  },
  {
    name: 'pidfile: empty command',
    options: { name: 'k', state: 'running', pidfile: { command: [], pidFile: '/p' } },
    field: 'pidfile.command',
    message: /non-empty array/,
  },
  {
    name: 'pidfile: relative pidFile',
    options: { name: 'k', state: 'running', pidfile: { command: ['k'], pidFile: 'k.pid' } },
    field: 'pidfile.pidFile',
    message: /absolute file path/,
  },
  {
    name: 'pidfile: unknown key',
    options: { name: 'k', state: 'running', pidfile: { command: ['k'], pidFile: '/p', user: 'x' } },
    field: 'pidfile.user',
    message: /not an option of the pidfile manager/,
  },
  {
    name: 'pidfile: command[0] an option',
    options: { name: 'k', state: 'running', pidfile: { command: ['-x'], pidFile: '/p' } },
    field: 'pidfile.command[0]',
    message: /must be a program/,
  },
  {
    name: 'unknown option',
    options: { name: 'k', state: 'running', reload: true },
    field: 'reload',
    message: /not an option of linux\.service/,
  },
];

for (const e of errors) {
  test(`options refused: ${e.name}`, (t) => {
    const err = t.throws(() => service(e.options as any), { instanceOf: StepOptionError });
    t.is(err!.field, e.field);
    t.regex(err!.message, e.message);
  });
}
