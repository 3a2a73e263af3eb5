// command and sysctl scripts, run with the local /bin/sh (see local-remote.ts). The sysctl live
// value is only ever written inside throwaway network namespaces (root only; skipped otherwise).
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteError } from '../../../runner/core/errors.js';
import { command, sysctl } from '../../../tasks/linux/index.js';
import { converge, HOSTILE, localHost, plan, removeHosts, tree } from './local-remote.js';

const [H1, H2, H3] = HOSTILE;
const pwnedBefore = existsSync('/tmp/pwned');
const isRoot = process.getuid?.() === 0;
const canUnshare = isRoot && spawnSync('unshare', ['-n', 'true']).status === 0;

test.after.always('remove the temp directories', removeHosts);

test.afterEach.always('no injected command ran', (t) => {
  if (!pwnedBefore) t.false(existsSync('/tmp/pwned'), '/tmp/pwned was created');
});

test("command argv: every element is one literal word; outputs are the run's", async (t) => {
  const h = localHost();
  const s = command({ command: ['printf', '<%s>', H1, H2, H3, ''] });
  const { change, outputs } = await converge(h, s);
  t.is(change.action, 'run');
  t.deepEqual(outputs, { stdout: `<${H1}><${H2}><${H3}><>`, stderr: '', code: 0 });
  t.deepEqual(h.executed(), []);
});

test('command with creates and a hostile chdir: runs once, then noop', async (t) => {
  const h = localHost();
  const dir = join(h.root, `${H2}${H3}`);
  mkdirSync(dir);
  const made = join(dir, H2);
  const s = command({ command: ['sh', '-c', 'pwd > "$1"', 'sh', made], creates: made, chdir: dir });
  const first = await converge(h, s);
  t.is(first.change.action, 'run');
  t.is(first.rest.action, 'noop'); // converged: `creates` exists now
  t.is(readFileSync(made, 'utf8'), `${dir}\n`);
  const second = await plan(h, s);
  t.is(second.change.action, 'noop');
  t.deepEqual(tree(h.root), [`${H2}${H3}/`, `${H2}${H3}/${H2}`]);
  t.deepEqual(h.executed(), []);
});

test('command: a command that does not create `creates` is seen by the re-probe', async (t) => {
  const h = localHost();
  const s = command({ command: ['true'], creates: join(h.root, 'never') });
  const { rest } = await converge(h, s);
  t.is(rest.action, 'run'); // the runner reports this as "not converged: command"
});

test('command string: shell code by the author; failure reports the exit code and stderr tail', async (t) => {
  const h = localHost();
  const ok = await converge(h, command({ command: 'echo out; echo err >&2', chdir: h.root }));
  t.deepEqual(ok.outputs, { stdout: 'out\n', stderr: 'err\n', code: 0 });
  const s = command({
    command: `i=0; while [ $i -lt 500 ]; do echo "noise $i" >&2; i=$((i+1)); done; echo 'the real reason' >&2; exit 3`,
  });
  const err = await t.throwsAsync(() => s.apply(h, s.diff(s.desired, null), null, s.desired), {
    instanceOf: RemoteError,
  });
  t.is(err!.code, 3);
  t.regex(err!.message, /^command i=0; .*… exited 3: …/);
  t.regex(err!.message, /the real reason$/);
  t.true(err!.stderr.length <= 2001);
});

test('command: stdin is /dev/null, a missing chdir fails before running', async (t) => {
  const h = localHost();
  const read = await converge(h, command({ command: ['cat'] }));
  t.is((read.outputs as { stdout: string }).stdout, '');
  const s = command({ command: ['touch', join(h.root, 'x')], chdir: join(h.root, 'nope') });
  await t.throwsAsync(() => s.apply(h, s.diff(s.desired, null), null, s.desired), {
    message: /exited 2: .*can't cd to/,
  });
  t.deepEqual(tree(h.root), []);
});

test('sysctl persisted: hostile file name and value land literally (live setter not run)', async (t) => {
  const h = localHost();
  const conf = join(h.root, `${H2}${H3}.conf`);
  const value = `${H1} ${H2} ${H3}`;
  const s = sysctl({ key: 'net.ipv4.ip_forward', value, file: conf });
  const { actual, change } = await plan(h, s);
  t.deepEqual([...change.fields], ['live', 'persisted']);
  await s.apply(h, { ...change, fields: ['persisted'] }, actual, s.desired);
  t.is(readFileSync(conf, 'utf8'), `net.ipv4.ip_forward = ${value}\n`);
  const after = (await plan(h, s)).actual!;
  t.is(after.persisted, value);
  t.deepEqual(tree(h.root), [`${H2}${H3}.conf`]);
  t.deepEqual(h.executed(), []);
});

test('sysctl persisted: only the last assignment of the key is rewritten, others kept', async (t) => {
  const h = localHost();
  const conf = join(h.root, '90.conf');
  execFileSync('sh', [
    '-c',
    'printf "# mine\\nnet.ipv4.ip_forward=0\\nvm.swappiness = 10\\nnet.ipv4.ip_forward = 0\\n" > "$1"',
    'sh',
    conf,
  ]);
  const s = sysctl({ key: 'net.ipv4.ip_forward', value: 1, file: conf });
  const { actual, change } = await plan(h, s);
  await s.apply(h, { ...change, fields: ['persisted'] }, actual, s.desired);
  t.is(readFileSync(conf, 'utf8'), '# mine\nnet.ipv4.ip_forward=0\nvm.swappiness = 10\nnet.ipv4.ip_forward = 1\n');
});

test('sysctl live: a hostile value is written as text (and refused by the kernel) in a throwaway netns', async (t) => {
  if (!canUnshare) return t.pass('needs root and unshare -n');
  const h = localHost(['unshare', '-n']);
  const s = sysctl({ key: 'net.ipv4.ip_forward', value: `${H1} ${H2} ${H3}`, file: join(h.root, 'c.conf') });
  const { actual, change } = await plan(h, s);
  await t.throwsAsync(() => s.apply(h, change, actual, s.desired), { message: /sysctl net\.ipv4\.ip_forward failed/ });
  // The live write failed first, so the file was not written either.
  t.deepEqual(tree(h.root), []);
  t.deepEqual(h.executed(), []);
});

test('sysctl: converges live and persisted in a network namespace, 0 included; a second run is noop', async (t) => {
  if (!isRoot) return t.pass('needs root');
  const ns = `play-test-${process.pid}`;
  if (spawnSync('ip', ['netns', 'add', ns]).status !== 0) return t.pass('ip netns add failed');
  t.teardown(() => {
    spawnSync('ip', ['netns', 'del', ns]);
  });
  const h = localHost(['ip', 'netns', 'exec', ns]);
  const conf = join(h.root, '99-play.conf');
  for (const value of [1, 0, '1']) {
    const s = sysctl({ key: 'net.ipv4.ip_forward', value, file: conf });
    const { change, rest } = await converge(h, s);
    t.not(change.action, 'noop', `value ${value}`);
    t.is(rest.action, 'noop', `value ${value}`);
    t.is(
      execFileSync('ip', ['netns', 'exec', ns, 'cat', '/proc/sys/net/ipv4/ip_forward'], { encoding: 'utf8' }),
      `${value}\n`,
    );
    t.is((await plan(h, s)).change.action, 'noop');
  }
  t.is(readFileSync(conf, 'utf8'), 'net.ipv4.ip_forward = 1\n');
  // Multi-value keys compare normalized.
  const range = sysctl({ key: 'net.ipv4.ip_local_port_range', value: '40000\t50000', file: conf });
  t.is((await converge(h, range)).rest.action, 'noop');
  t.is(readFileSync(conf, 'utf8'), 'net.ipv4.ip_forward = 1\nnet.ipv4.ip_local_port_range = 40000 50000\n');
  // An unknown key: the plan warns, apply fails.
  const unknown = sysctl({ key: 'net.ipv4.no_such_key', value: 1, file: conf });
  const p = await plan(h, unknown);
  t.regex(p.change.warnings![0]!, /is not a kernel parameter on this host/);
  await t.throwsAsync(() => unknown.apply(h, p.change, p.actual, unknown.desired));
});

test('sysctl probe (read-only): a real key is read, a directory of keys is not a parameter', async (t) => {
  const h = localHost();
  const real = await plan(
    h,
    sysctl({ key: 'net.ipv4.ip_local_port_range', value: '1 2', file: join(h.root, 'c.conf') }),
  );
  t.regex(real.actual!.live!, /^\d+ \d+$/);
  const dir = await plan(h, sysctl({ key: 'net.ipv4.conf', value: 1, file: join(h.root, 'c.conf') }));
  t.is(dir.actual!.live, null);
  t.regex(dir.change.warnings![0]!, /\/proc\/sys\/net\/ipv4\/conf is not a kernel parameter/);
  t.deepEqual(tree(h.root), []);
});
