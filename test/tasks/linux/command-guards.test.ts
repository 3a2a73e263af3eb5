// linux.command's unless, removes, changedWhen, env and stdin, run with the local /bin/sh
// (local-remote.ts: probes batched as the runner batches them, stdin passed through, a Secret
// revealed as the transport would): the three runs with each guard, hostile values arriving as
// literal text, and a Secret env value that is on stdin only, never in the script. Also the probe
// groups of a host (probe-batch.ts groupProbes) as one table.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { reportsUnchanged } from '../../../runner/core/applied.js';
import { psCall, psFunction } from '../../../runner/core/ps-call.js';
import { ps, sh } from '../../../runner/core/quote.js';
import { Secret } from '../../../runner/core/secret.js';
import { groupProbes } from '../../../runner/run/probe-batch.js';
import { command } from '../../../tasks/linux/index.js';
import { converge, HOSTILE, localHost, plan, removeHosts } from './local-remote.js';

const [H1, H2, H3] = HOSTILE;
test.after.always('remove the temp directories', removeHosts);

/** check reports the change, apply makes it and converges, a second run is a noop. */
async function threeRuns(h: ReturnType<typeof localHost>, s: ReturnType<typeof command>) {
  const check = await plan(h, s);
  const first = await converge(h, s);
  const again = await plan(h, s);
  return {
    check: check.change.action,
    applied: first.change.action,
    rest: first.rest.action,
    again: again.change.action,
    outputs: first.outputs,
  };
}

test('unless: runs in chdir with the plain env, exit 0 means nothing to do', async (t) => {
  const h = localHost();
  const marker = join(h.root, 'mode');
  const s = command({
    command: ['sh', '-c', 'printf %s "$MODE" > mode'],
    chdir: h.root,
    env: { MODE: `on ${H1}` },
    unless: 'test "$(cat mode 2>/dev/null)" = "$MODE"',
  });
  const r = await threeRuns(h, s);
  t.deepEqual([r.check, r.applied, r.rest, r.again], ['run', 'run', 'noop', 'noop']);
  t.is(readFileSync(marker, 'utf8'), `on ${H1}`);
  t.deepEqual(h.executed(), []);
});

test('removes: runs only while the path exists, and must remove it', async (t) => {
  const h = localHost();
  const path = join(h.root, H2);
  writeFileSync(path, 'x');
  const r = await threeRuns(h, command({ command: ['rm', '--', path], removes: path }));
  t.deepEqual([r.check, r.applied, r.rest, r.again], ['run', 'run', 'noop', 'noop']);
  t.false(existsSync(path));
  const untouched = await converge(h, command({ command: ['true'], removes: join(h.root, 'other') }));
  t.is(untouched.change.action, 'noop');
});

test('env and stdin: hostile values arrive literally; a Secret env value is on stdin, never in the script', async (t) => {
  const h = localHost();
  const secret = new Secret(`pa ss'\n${H3}\n`, 'env:PW');
  const s = command({
    command: 'printf "%s|%s|" "$PLAIN" "$PW"; cat',
    env: { PLAIN: H1, PW: secret },
    stdin: `in ${H2}\nline 2`,
  });
  const { outputs } = await converge(h, s);
  t.deepEqual(outputs, { stdout: `${H1}|pa ss'\n${H3}\n|in ${H2}\nline 2`, stderr: '', code: 0 });
  t.false(
    h.scripts.some((text) => text.includes('pa ss')),
    'the secret is not in any script',
  );
  const noInput = await converge(h, command({ command: 'printf %s "$PW"; cat', env: { PW: secret } }));
  t.deepEqual(noInput.outputs, { stdout: `pa ss'\n${H3}\n`, stderr: '', code: 0 });
  t.deepEqual(h.executed(), []);
});

test('changedWhen decides changed or ok from { stdout, stderr, code }', async (t) => {
  const h = localHost();
  const seen: unknown[] = [];
  const s = command({
    command: 'echo already there',
    changedWhen: (r) => (seen.push(r), !r.stdout.includes('already')),
  });
  const p = await plan(h, s);
  t.true(reportsUnchanged(await s.apply(h, p.change, p.actual, s.desired)));
  t.deepEqual(seen, [{ stdout: 'already there\n', stderr: '', code: 0 }]);
  const yes = command({ command: 'echo made', changedWhen: (r) => r.stdout.includes('made') });
  t.false(reportsUnchanged(await yes.apply(h, p.change, null, yes.desired)));
  const bad = command({ command: 'true', changedWhen: (() => 'yes') as unknown as () => boolean });
  await t.throwsAsync(bad.apply(h, p.change, null, bad.desired), {
    message: 'linux.command: changedWhen must return true or false, got string',
  });
});

test('option errors name the field', (t) => {
  const cases: [Record<string, unknown>, string][] = [
    [{ unless: '  ' }, "linux.command: option 'unless' must be shell code (not empty, no NUL byte)"],
    [{ removes: 'rel' }, `linux.command: option 'removes' must be an absolute path, got the string "rel"`],
    [
      { env: { 'A-B': 'x' } },
      "linux.command: option 'env.A-B' must be named with letters, digits and _ (not starting with a digit)",
    ],
    [{ env: { PATH: '/x' } }, "linux.command: option 'env.PATH' is reserved: it would change how the command is run"],
    [{ env: { A: 1 } }, "linux.command: option 'env.A' must be a string or a Secret, got number"],
    [{ env: ['A=1'] }, "linux.command: option 'env' must be an object of NAME: value"],
    [{ stdin: 5 }, "linux.command: option 'stdin' must be a string or a Secret, got number"],
    [
      { changedWhen: 'true' },
      "linux.command: option 'changedWhen' must be a function of { stdout, stderr, code } returning true or false, got string",
    ],
  ];
  for (const [more, message] of cases) t.throws(() => command({ command: ['true'], ...more } as never), { message });
});

test('a host probes sh in one batch, PowerShell calls in one program, any other PowerShell script alone', (t) => {
  const fn = psFunction('Get-PlayX', '1');
  const scripts = [sh`a`, psCall(fn, {}), ps`Get-Item x`, sh`b`, psCall(fn, { n: 1 }), ps`Get-Item y`];
  t.deepEqual(groupProbes(scripts), [
    { kind: 'sh-batch', indices: [0, 3] },
    { kind: 'ps-calls', indices: [1, 4] },
    { kind: 'alone', indices: [2] },
    { kind: 'alone', indices: [5] },
  ]);
  t.deepEqual(groupProbes([]), []);
});
