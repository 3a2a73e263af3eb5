// Apply and re-probe in one round trip (runner/run/apply-then-probe.ts, Step.applyThenProbe): the
// split of the combined output as a table, then the runner over a local /bin/sh "host" with the
// bench's Linux steps: a first apply costs one round trip per wave of ready steps, with the steps that
// wait only for them (chain.ts; not two per changed step), a re-run one in all, the apply's own output and exit status reach the step untouched, and convergence is still
// proven by the real probe.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runLocally, runSh, statuses } from '../helpers/local-sh.js';
import { Script, sh } from '../../runner/core/quote.js';
import type { AnyStep } from '../../runner/core/step.js';
import { definePlaybook } from '../../runner/playbook/define.js';
import {
  appliesStdin,
  appliesThenProbeScript,
  applyThenProbeScript,
  splitAppliesThenProbe,
  splitApplyThenProbe,
  SKIPPED,
} from '../../runner/run/apply-then-probe.js';
import { command, directory, file, lineInFile } from '../../tasks/linux/index.js';

test('the combined output splits into the apply result and each probe result', async (t) => {
  const nonce = 'n0nce';
  const probes = [sh`echo probe-one; echo warn >&2`, sh`printf 'no newline'; exit 3`];
  const cases: [string, string, string | undefined][] = [
    ['output with a newline', `echo applied; echo oops >&2`, undefined],
    ['output without one, exit 4', `printf 'half'; exit 4`, undefined],
    ['set -e, exec and stdin are its own', `set -e\ncat > /dev/null\nexec printf 'read %s' "$0"`, 'content'],
  ];
  const got = [];
  for (const [what, apply, stdin] of cases) {
    const out = await runSh(applyThenProbeScript(new Script('sh', apply), probes, nonce).text, stdin);
    const split = splitApplyThenProbe(out, nonce, probes.length)!;
    got.push([what, split.apply, split.probes]);
  }
  t.deepEqual(got, [
    [
      'output with a newline',
      { stdout: 'applied\n', stderr: 'oops\n', code: 0 },
      [
        { stdout: 'probe-one\n', stderr: 'warn\n', code: 0 },
        { stdout: 'no newline', stderr: 'warn\n', code: 3 },
      ],
    ],
    [
      'output without one, exit 4',
      { stdout: 'half', stderr: '', code: 4 },
      [
        { stdout: 'probe-one\n', stderr: 'warn\n', code: 0 },
        { stdout: 'no newline', stderr: 'warn\n', code: 3 },
      ],
    ],
    [
      'set -e, exec and stdin are its own',
      { stdout: 'read /bin/sh', stderr: '', code: 0 },
      [
        { stdout: 'probe-one\n', stderr: 'warn\n', code: 0 },
        { stdout: 'no newline', stderr: 'warn\n', code: 3 },
      ],
    ],
  ]);
  t.is(splitApplyThenProbe({ stdout: 'applied, then killed', stderr: '', code: 124 }, nonce, 2), null);
});

/** The bench's steps (but sysctl, which would change this machine) under `dir`; `carry` false opts every step out. */
function benchLike(dir: string, carry: boolean) {
  const opt = (s: AnyStep): AnyStep => (carry ? s : { ...s, applyThenProbe: false });
  return definePlaybook({
    name: 'bench-like',
    description: 'directory, file, line, guarded command',
    tasks: {
      dir: { on: 'web', step: opt(directory({ path: `${dir}/srv`, mode: '0755' })) },
      copy: { on: 'web', needs: ['dir'], step: opt(file({ path: `${dir}/srv/app.conf`, content: 'host=h1\n' })) },
      line: {
        on: 'web',
        needs: ['dir'],
        step: opt(lineInFile({ path: `${dir}/srv/settings.ini`, regexp: '^port=', line: 'port=8080', create: true })),
      },
      init: {
        on: 'web',
        needs: ['dir'],
        step: opt(
          command({
            command: `echo out; echo err >&2; touch ${dir}/srv/initialized`,
            creates: `${dir}/srv/initialized`,
            changedWhen: (r) => r.stdout === 'out\n' && r.stderr === 'err\n',
          }),
        ),
      },
    },
  });
}

const run = runLocally;

test('round trips of a first apply and a re-run, with and without the carried re-probe', async (t) => {
  const rows = [];
  for (const carry of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), 'play-carry-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const first = await run(benchLike(dir, carry), dir);
    const again = await run(benchLike(dir, carry), dir);
    rows.push([carry, first.trips, statuses(first.report), again.trips, statuses(again.report)]);
    t.is(readFileSync(`${dir}/srv/settings.ini`, 'utf8'), 'port=8080\n');
  }
  const changed = ['dir: changed', 'copy: changed', 'line: changed', 'init: changed'];
  const ok = ['dir: ok', 'copy: ok', 'line: ok', 'init: ok'];
  t.deepEqual(rows, [
    // one probe batch; dir's apply, then copy's, line's and init's (which wait only for dir), each
    // guarded by its probe still printing what its plan was made from, with every re-probe
    [true, 2, changed, 1, ok],
    [false, 9, changed, 1, ok],
  ]);
});

test('a failed apply fails with its own output; an apply that does not converge is still caught', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-carry-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pb = definePlaybook({
    name: 'carry-failures',
    description: 'a failing command and one that does not create what it promised',
    tasks: {
      fails: { on: 'web', step: command({ command: 'echo bad >&2; exit 3', creates: `${dir}/never` }) },
      lies: { on: 'web', step: command({ command: 'true', creates: `${dir}/not-made` }) },
    },
  });
  const { report, trips } = await run(pb, dir);
  t.deepEqual(statuses(report), [
    'fails: failed command echo bad >&2; exit 3 exited 3: bad',
    'lies: failed not converged: command',
  ]);
  // the probe batch; both applies (independent) in one round trip with both re-probes
  t.is(trips, 2);
});

test('several applies in one round trip: each reads exactly its own input, whatever it leaves unread', async (t) => {
  const nonce = 'n0nce';
  const input = (s: string) => Buffer.from(s);
  const applies = [
    // reads one byte of its three and stops: the other two are drained, not passed on
    { script: new Script('sh', `head -c 1; echo; exit 2`), stdin: input('abc') },
    { script: new Script('sh', `cat; echo no-input`), stdin: null },
    // never reads its input at all
    { script: new Script('sh', `echo ignores >&2`), stdin: input('xyz') },
    // the last one with input reads the rest, as it would alone
    { script: new Script('sh', `set -e\nwc -c | tr -d ' '`), stdin: input('héllo\n') },
  ];
  const out = await runSh(appliesThenProbeScript(applies, [sh`echo probed`], nonce).text, appliesStdin(applies));
  t.deepEqual(splitAppliesThenProbe(out, nonce, applies.length, 1), {
    applies: [
      { stdout: 'a\n', stderr: '', code: 2 },
      { stdout: 'no-input\n', stderr: '', code: 0 },
      { stdout: '', stderr: 'ignores\n', code: 0 },
      { stdout: '7\n', stderr: '', code: 0 },
    ],
    probes: [{ stdout: 'probed\n', stderr: '', code: 0 }],
  });
  // cut short after the first apply: the rest have no result, and the probes are not read
  const cut = splitAppliesThenProbe(
    { stdout: `a\n\n@@${nonce}@@apply@@0@@end 2\nhalf`, stderr: '', code: null },
    nonce,
    2,
    1,
  );
  t.deepEqual(cut.applies, [{ stdout: 'a\n', stderr: '', code: 2 }, null]);
  t.true(cut.probes instanceof Error);
});

test('applies in one round trip stay apart: a syntax error, a trap, an exit, options and variables are each its own', async (t) => {
  const nonce = 'n0nce';
  const applies = [
    { script: new Script('sh', `play_tmp=leaked; set -eu; trap 'echo trap-one' EXIT; exit 5`), stdin: null },
    { script: new Script('sh', `if then fi`), stdin: null },
    { script: new Script('sh', `echo "tmp=\${play_tmp:-unset}"; false; echo after-false`), stdin: null },
    { script: new Script('sh', `exec echo replaced`), stdin: null },
  ];
  const out = await runSh(appliesThenProbeScript(applies, [sh`echo probed`], nonce).text, appliesStdin(applies));
  const split = splitAppliesThenProbe(out, nonce, applies.length, 1);
  t.deepEqual(
    split.applies.map(
      (r) => r && r !== SKIPPED && { ...r, stderr: r.stderr.replace(/^.*(Syntax error|syntax error).*$/m, 'SYNTAX') },
    ),
    [
      { stdout: 'trap-one\n', stderr: '', code: 5 },
      { stdout: '', stderr: 'SYNTAX\n', code: 2 },
      { stdout: 'tmp=unset\nafter-false\n', stderr: '', code: 0 },
      { stdout: 'replaced\n', stderr: '', code: 0 },
    ],
  );
  t.deepEqual(split.probes, [{ stdout: 'probed\n', stderr: '', code: 0 }]);
});

test('steps applied together: a second script of one makes the shared re-probe stale, so every step is probed again', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-carry-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const twice: AnyStep = {
    ...file({ path: `${dir}/twice`, content: 'two\n' }),
    async apply(remote) {
      await remote.run(sh`printf 'one\\n' > ${`${dir}/twice`}`);
      await remote.run(sh`printf 'two\\n' > ${`${dir}/twice`}`);
    },
  };
  const pb = definePlaybook({
    name: 'group-stale',
    description: 'two independent steps, one of which runs two scripts',
    tasks: {
      twice: { on: 'web', step: twice },
      dir: { on: 'web', step: directory({ path: `${dir}/d`, mode: '0750' }) },
    },
  });
  const { report, trips } = await run(pb, dir);
  t.deepEqual(statuses(report), ['twice: changed', 'dir: changed']);
  t.is(readFileSync(`${dir}/twice`, 'utf8'), 'two\n');
  // the probe batch; both first scripts with the re-probes; twice's second script alone; the probes again
  t.is(trips, 4);
});
