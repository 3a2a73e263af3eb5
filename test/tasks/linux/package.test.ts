// pkg: option checks, the probe's output per package manager, the pure diff, the install script
// against stand-in apt-get/dpkg-query (nothing is installed on this machine), and a real
// read-only probe of this machine's dpkg.
import test from 'ava';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteError, StepOptionError } from '../../../runner/core/errors.js';
import { pkg, type PackageActual } from '../../../tasks/linux/package.js';
import { converge, localHost, plan, removeHosts } from './local-remote.js';

test.after.always('remove the temp directories', removeHosts);

const out = (stdout: string) => ({ stdout, stderr: '', code: 0 });
const ka = pkg({ name: 'keepalived' });
const parse = (s: string) => ka.probe().parse(out(s)) as PackageActual;

const probes: { name: string; stdout: string; actual: PackageActual }[] = [
  {
    name: 'dpkg: installed',
    stdout: 'manager apt\nstatus install ok installed\n',
    actual: { manager: 'apt', installed: true, status: 'install ok installed' },
  },
  {
    name: 'dpkg: held, still installed',
    stdout: 'manager apt\nstatus hold ok installed\n',
    actual: { manager: 'apt', installed: true, status: 'hold ok installed' },
  },
  {
    name: 'dpkg: removed, config files left',
    stdout: 'manager apt\nstatus deinstall ok config-files\n',
    actual: { manager: 'apt', installed: false, status: 'deinstall ok config-files' },
  },
  {
    name: 'dpkg: half-configured',
    stdout: 'manager apt\nstatus install ok half-configured\n',
    actual: { manager: 'apt', installed: false, status: 'install ok half-configured' },
  },
  {
    name: 'dpkg: unknown to dpkg',
    stdout: 'manager apt\nstatus not-installed\n',
    actual: { manager: 'apt', installed: false, status: 'not installed' },
  },
  {
    name: 'dpkg: two architectures, one installed',
    stdout: 'manager apt\nstatus deinstall ok config-files\nstatus install ok installed\n',
    actual: { manager: 'apt', installed: true, status: 'deinstall ok config-files; install ok installed' },
  },
  {
    name: 'dnf: installed',
    stdout: 'manager dnf\nstatus installed\n',
    actual: { manager: 'dnf', installed: true, status: 'installed' },
  },
  {
    name: 'yum: absent',
    stdout: 'manager yum\nstatus not-installed\n',
    actual: { manager: 'yum', installed: false, status: 'not installed' },
  },
  {
    name: 'no manager',
    stdout: 'manager none\n',
    actual: { manager: null, installed: false, status: 'no package manager' },
  },
];

for (const p of probes) {
  test(`probe: ${p.name}`, (t) => {
    t.deepEqual(parse(p.stdout), p.actual);
  });
}

test('probe: junk is an error', (t) => {
  t.throws(() => parse('manager pacman\nstatus installed\n'), { message: /unknown package manager "pacman"/ });
  t.throws(() => parse('manager apt\n'), { message: /no status line/ });
  t.throws(() => parse('manager apt\nstatus install ok installed\nDone\n'), { message: /expected 'status'/ });
});

test('diff: installed is noop; otherwise create, with a warning when no manager was found', (t) => {
  t.is(ka.diff(ka.desired, { manager: 'apt', installed: true, status: 'install ok installed' }).action, 'noop');
  t.deepEqual(ka.diff(ka.desired, { manager: 'apt', installed: false, status: 'deinstall ok config-files' }), {
    action: 'create',
    fields: ['installed'],
    before: { installed: 'deinstall ok config-files' },
    after: { installed: true },
  });
  t.deepEqual(ka.diff(ka.desired, { manager: null, installed: false, status: 'no package manager' }).warnings, [
    'no supported package manager (apt-get with dpkg, dnf or yum) on this host: apply will fail',
  ]);
});

test('probe script: managers in order apt, dnf, yum; one forced manager alone', (t) => {
  const text = ka.probe().script.text;
  t.true(text.indexOf("echo 'manager apt'") < text.indexOf("echo 'manager dnf'"));
  t.true(text.indexOf("echo 'manager dnf'") < text.indexOf("echo 'manager yum'"));
  const dnf = pkg({ name: 'keepalived', manager: 'dnf' }).probe().script.text;
  t.false(dnf.includes('dpkg-query'));
  t.true(dnf.includes('rpm -q --quiet --whatprovides keepalived'));
});

const errors: { name: string; options: unknown; field: string; message: RegExp }[] = [
  { name: 'name missing', options: {}, field: 'name', message: /must be a string, got nothing/ },
  { name: 'name as an option', options: { name: '-y' }, field: 'name', message: /package name/ },
  { name: 'name with a space', options: { name: 'keepalived ipvsadm' }, field: 'name', message: /package name/ },
  { name: 'name with shell', options: { name: 'k;reboot' }, field: 'name', message: /package name/ },
  { name: 'a version pin', options: { name: 'keepalived=1:2.2.7' }, field: 'name', message: /package name/ },
  {
    name: 'unknown manager',
    options: { name: 'k', manager: 'zypper' },
    field: 'manager',
    message: /'auto', 'apt', 'dnf' or 'yum'/,
  },
  {
    name: 'unknown option',
    options: { name: 'k', state: 'absent' },
    field: 'state',
    message: /not an option of linux\.package/,
  },
];

for (const e of errors) {
  test(`options refused: ${e.name}`, (t) => {
    const err = t.throws(() => pkg(e.options as any), { instanceOf: StepOptionError });
    t.is(err!.field, e.field);
    t.regex(err!.message, e.message);
  });
}

// Stand-ins: dpkg-query knows what apt-get installed; apt-get install fails with apt's message
// until `update` has run (when STALE is set), or with another error (when BROKEN is set).
function fakeApt(opts: { stale?: boolean; broken?: boolean }) {
  const h = localHost();
  const bin = join(h.root, '..', 'bin');
  const state = join(h.root, '..', 'apt-state');
  const script = (body: string) => `#!/bin/sh\necho "$(basename "$0") $*" >> '${state}.calls'\n${body}\n`;
  writeFileSync(
    join(bin, 'dpkg-query'),
    script(`grep -qx "$3" '${state}.installed' 2>/dev/null || exit 1; printf 'status install ok installed\\n'`),
  );
  writeFileSync(
    join(bin, 'apt-get'),
    script(`
case $1 in
  update) touch '${state}.updated'; echo 'Reading package lists... Done' ;;
  install)
    [ "$DEBIAN_FRONTEND" = noninteractive ] || { echo 'E: not noninteractive' >&2; exit 100; }
    ${opts.broken ? "echo 'E: Could not get lock /var/lib/dpkg/lock-frontend' >&2; exit 100" : ''}
    ${opts.stale ? `[ -e '${state}.updated' ] || { echo "E: Unable to locate package $(eval echo \\\${$#})" >&2; exit 100; }` : ''}
    eval "echo \\\${$#}" >> '${state}.installed'; echo 'Setting up' ;;
esac`),
  );
  for (const f of ['dpkg-query', 'apt-get']) chmodSync(join(bin, f), 0o755);
  return { h, calls: () => readFileSync(`${state}.calls`, 'utf8').trim().split('\n') };
}

test('apt: lists that do not know the package get one apt-get update, then the install converges', async (t) => {
  const { h, calls } = fakeApt({ stale: true });
  const s = pkg({ name: 'keepalived' });
  const { change, rest } = await converge(h, s);
  t.is(change.action, 'create');
  t.is(rest.action, 'noop');
  t.deepEqual(
    calls().filter((c) => c.startsWith('apt-get')),
    [
      'apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 keepalived',
      'apt-get update -o DPkg::Lock::Timeout=120',
      'apt-get install -y --no-install-recommends -o DPkg::Lock::Timeout=120 keepalived',
    ],
  );
  t.is((await plan(h, s)).change.action, 'noop', 'a host that has it changes nothing');
});

test("apt: fresh lists need no update; another failure fails the step with apt's message and code", async (t) => {
  const fresh = fakeApt({});
  t.is((await converge(fresh.h, pkg({ name: 'ipvsadm' }))).rest.action, 'noop');
  t.false(fresh.calls().some((c) => c.startsWith('apt-get update')));

  const broken = fakeApt({ broken: true });
  const s = pkg({ name: 'ipvsadm' });
  const { actual, change } = await plan(broken.h, s);
  const err = await t.throwsAsync(() => s.apply(broken.h, change, actual, s.desired), { instanceOf: RemoteError });
  t.is(err!.code, 100);
  t.regex(err!.message, /package ipvsadm: apt install failed \(exit 100\): E: Could not get lock/);
  t.false(broken.calls().some((c) => c.startsWith('apt-get update')));
});

test("this machine's dpkg, read only: keepalived is installed (noop), an unknown name is not", async (t) => {
  const h = localHost();
  const installed = await plan(h, pkg({ name: 'keepalived' }));
  t.like(installed.actual, { manager: 'apt', installed: true, status: 'install ok installed' });
  t.is(installed.change.action, 'noop');
  const unknown = await plan(h, pkg({ name: 'play-no-such-package' }));
  t.like(unknown.actual, { manager: 'apt', installed: false, status: 'not installed' });
  t.is(unknown.change.action, 'create');
});
