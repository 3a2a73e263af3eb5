// A dependent chained onto its dependencies' round trip (runner/run/chain.ts): the guard on the host
// as a table (it runs only where its probe prints what its plan was made from and its dependencies
// exited 0), then the runner over a local /bin/sh "host": what rides along, what waits, and that a
// dependent never acts on a plan its dependency made stale.
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { runLocally, runSh, statuses } from '../helpers/local-sh.js';
import { Script, sh } from '../../runner/core/quote.js';
import type { AnyStep } from '../../runner/core/step.js';
import { definePlaybook } from '../../runner/playbook/define.js';
import { appliesThenProbeScript, splitAppliesThenProbe, type ApplyInput } from '../../runner/run/apply-then-probe.js';
import { command, directory, file, lineInFile } from '../../tasks/linux/index.js';

function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-chain-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('a guarded apply runs only where its probe prints what it printed and what it waits for exited 0', async (t) => {
  const dir = tempDir(t);
  const nonce = 'n0nce';
  const f = `${dir}/f`;
  // The probe: the file's content, or that it is missing (status 1).
  const probe = sh`cat ${f} 2>/dev/null || { echo missing; exit 1; }`;
  const dependency = (code: number): ApplyInput => ({
    script: new Script('sh', `printf 'made\\n' > ${f}; exit ${code}`),
    stdin: null,
  });
  const guarded = (seen: { stdout: string; code: number }): ApplyInput => ({
    script: sh`echo ran`,
    stdin: null,
    guard: { probe, seen, after: [0] },
  });
  const cases: [string, ApplyInput[], string[]][] = [
    ['the probe prints what it printed', [dependency(0), guarded({ stdout: 'made\n', code: 0 })], ['ran\n']],
    ['its output differs', [dependency(0), guarded({ stdout: 'missing\n', code: 1 })], ['skipped']],
    ['its status differs', [dependency(0), guarded({ stdout: 'made\n', code: 1 })], ['skipped']],
    ['a trailing newline differs', [dependency(0), guarded({ stdout: 'made', code: 0 })], ['skipped']],
    ['the dependency exited 3', [dependency(3), guarded({ stdout: 'made\n', code: 0 })], ['skipped']],
    [
      'quotes and a newline in what it printed',
      [
        { script: new Script('sh', `printf '%s\\n' "it's \\$(id)" 'two' > ${f}`), stdin: null },
        guarded({ stdout: "it's $(id)\ntwo\n", code: 0 }),
      ],
      ['ran\n'],
    ],
  ];
  const got = [];
  for (const [what, applies] of cases) {
    rmSync(f, { force: true });
    const out = await runSh(appliesThenProbeScript(applies, [probe], nonce).text);
    const split = splitAppliesThenProbe(out, nonce, applies.length, 1);
    got.push([what, split.applies.slice(1).map((r) => (typeof r === 'string' || r === null ? r : r.stdout))]);
  }
  t.deepEqual(
    got,
    cases.map(([what, , want]) => [what, want]),
  );
  t.throws(() => appliesThenProbeScript([guarded({ stdout: '', code: 0 }), dependency(0)], [], nonce), {
    message: 'guarded applies come last and read no input',
  });
});

test('steps that wait only for the ready ones ride in their round trip; a second run changes nothing', async (t) => {
  const dir = tempDir(t);
  const pb = definePlaybook({
    name: 'chain',
    description: 'a directory, two files in it, and a line in a third (which waits for a file)',
    tasks: {
      dir: { on: 'web', step: directory({ path: `${dir}/srv`, mode: '0750' }) },
      conf: { on: 'web', needs: ['dir'], step: file({ path: `${dir}/srv/app.conf`, content: 'a=1\n' }) },
      other: { on: 'web', needs: ['dir'], step: file({ path: `${dir}/srv/other.conf`, content: 'b=2\n' }) },
      line: {
        on: 'web',
        needs: ['conf'],
        step: lineInFile({ path: `${dir}/srv/ports.ini`, regexp: '^port=', line: 'port=1', create: true }),
      },
    },
  });
  const first = await runLocally(pb, dir);
  const again = await runLocally(pb, dir);
  t.deepEqual(
    [statuses(first.report), first.trips, statuses(again.report), again.trips],
    [
      ['dir: changed', 'conf: changed', 'other: changed', 'line: changed'],
      // the probes; dir with conf and other after it; line, which waits for conf (two levels down)
      3,
      ['dir: ok', 'conf: ok', 'other: ok', 'line: ok'],
      1,
    ],
  );
  t.is(readFileSync(`${dir}/srv/ports.ini`, 'utf8'), 'port=1\n');
  // conf and other ran together after dir: both started before either is done; the host is done last
  const order = first.events.flatMap((e) =>
    e.type === 'step-start' || e.type === 'step-done'
      ? [`${e.type} ${e.node.task}`]
      : e.type === 'host-done'
        ? ['host-done']
        : [],
  );
  t.deepEqual(order, [
    'step-start dir',
    'step-done dir',
    'step-start conf',
    'step-start other',
    'step-done conf',
    'step-done other',
    'step-start line',
    'step-done line',
    'host-done',
  ]);
});

test('without a kept shell nothing rides guarded (a guard carries its probe output, on no command line): each waits its turn', async (t) => {
  const dir = tempDir(t);
  const pb = definePlaybook({
    name: 'no-kept-shell',
    description: 'a directory and a file in it',
    tasks: {
      dir: { on: 'web', step: directory({ path: `${dir}/srv`, mode: '0750' }) },
      conf: { on: 'web', needs: ['dir'], step: file({ path: `${dir}/srv/app.conf`, content: 'a=1\n' }) },
    },
  });
  const { report, trips } = await runLocally(pb, dir, false);
  t.deepEqual(statuses(report), ['dir: changed', 'conf: changed']);
  // the probes; dir with the re-probe (conf's guarded apply left out); conf on that re-probe
  t.is(trips, 3);
  t.is(readFileSync(`${dir}/srv/app.conf`, 'utf8'), 'a=1\n');
});

test('a dependent whose state its dependency changed does not act on its old plan: it waits and plans again', async (t) => {
  const dir = tempDir(t);
  const path = `${dir}/settings.ini`;
  // A step that leaves a default config behind (as a package would): the line's plan, made before it
  // ran, was to create the file with the line alone.
  const pb = definePlaybook({
    name: 'stale-plan',
    description: 'a default file, then a line in that file',
    tasks: {
      install: { on: 'web', step: file({ path, content: 'default=1\n' }) },
      line: {
        on: 'web',
        needs: ['install'],
        step: lineInFile({ path, regexp: '^port=', line: 'port=8080', create: true }),
      },
    },
  });
  const { report, trips } = await runLocally(pb, dir);
  t.deepEqual(statuses(report), ['install: changed', 'line: changed']);
  t.is(readFileSync(path, 'utf8'), 'default=1\nport=8080\n');
  // the probes; install with line guarded (skipped: its probe now prints the default file); line again
  t.is(trips, 3);
});

test('a dependent never rides after a dependency that failed, a command, or one whose apply may send more than one script', async (t) => {
  const dir = tempDir(t);
  const failing = definePlaybook({
    name: 'failed-dependency',
    description: 'a command that fails, and a file that needs it',
    tasks: {
      fails: { on: 'web', step: command({ command: 'exit 3', creates: `${dir}/never` }) },
      after: { on: 'web', needs: ['fails'], step: file({ path: `${dir}/after`, content: 'x\n' }) },
    },
  });
  const failed = await runLocally(failing, dir);
  t.deepEqual(statuses(failed.report), [
    'fails: failed command exit 3 exited 3',
    'after: skipped needs fails on h1, which failed',
  ]);
  t.false(existsSync(`${dir}/after`));

  // A command's time is the user's: Ctrl-C while it runs must keep what needs it from starting.
  const commanded = definePlaybook({
    name: 'command-dependency',
    description: 'a command that succeeds, and a file that needs it',
    tasks: {
      make: { on: 'web', step: command({ command: `touch ${dir}/made`, creates: `${dir}/made` }) },
      after: { on: 'web', needs: ['make'], step: file({ path: `${dir}/after3`, content: 'z\n' }) },
    },
  });
  const made = await runLocally(commanded, dir);
  t.deepEqual(statuses(made.report), ['make: changed', 'after: changed']);
  // the probes; the command with the re-probe; after, on that re-probe, with its own
  t.is(made.trips, 3);

  // A step spread into one with an apply of its own is not known to send one script: nothing rides after it.
  const own: AnyStep = {
    ...file({ path: `${dir}/own`, content: 'two\n' }),
    async apply(remote) {
      await remote.run(sh`printf 'one\\n' > ${`${dir}/own`}`);
      await remote.run(sh`printf 'two\\n' > ${`${dir}/own`}`);
    },
  };
  const spread = definePlaybook({
    name: 'spread-dependency',
    description: 'a step with two scripts, and a file that needs it',
    tasks: {
      own: { on: 'web', step: own },
      after: { on: 'web', needs: ['own'], step: file({ path: `${dir}/after2`, content: 'y\n' }) },
    },
  });
  const r = await runLocally(spread, dir);
  t.deepEqual(statuses(r.report), ['own: changed', 'after: changed']);
  // the probes; own's two scripts, each with the re-probe; after, on that re-probe, with its own
  t.is(r.trips, 4);
});
