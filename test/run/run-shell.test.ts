// A run sends a host's sh scripts through the connection's one long-lived shell while it is free
// (ssh-connection.ts `script`, kept-shell.ts): end to end over a real SSH connection to the test sshd
// (test/transport/helpers: ssh2's Server running each exec request with the real /bin/sh), which
// records every exec request. A first apply and a re-run each ask the host for one session; an
// input that is a secret, and a command while the shell is busy, go as an exec of their own; a host
// that refuses the shell is asked once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { Secret } from '../../runner/core/secret.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { definePlaybook, type Playbook } from '../../runner/playbook/define.js';
import type { RunReport } from '../../runner/report/model.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';
import { command, directory, file, lineInFile } from '../../tasks/linux/index.js';
import { oneHostInventory } from '../helpers/one-host.js';
import { fixture, type Fixture } from '../transport/helpers/fixture.js';

function playbook(dir: string, secret?: Secret) {
  return definePlaybook({
    name: 'run-shell',
    description: 'directory, file, line, guarded command',
    tasks: {
      dir: { on: 'web', step: directory({ path: `${dir}/srv`, mode: '0755' }) },
      copy: { on: 'web', needs: ['dir'], step: file({ path: `${dir}/srv/app.conf`, content: 'host=h1\n' }) },
      line: {
        on: 'web',
        needs: ['dir'],
        step: lineInFile({ path: `${dir}/srv/settings.ini`, regexp: '^port=', line: 'port=8080', create: true }),
      },
      init: {
        on: 'web',
        needs: ['dir'],
        step: command({ command: ['touch', `${dir}/srv/initialized`], creates: `${dir}/srv/initialized` }),
      },
      ...(secret
        ? { token: { on: 'web', needs: ['dir'], step: file({ path: `${dir}/srv/token`, content: secret }) } }
        : {}),
    },
  });
}

/** One run over a new connection to the test sshd; the exec requests it made. */
async function run(f: Fixture, pb: Playbook<any>): Promise<{ report: RunReport; commands: string[] }> {
  const { inv } = oneHostInventory('h1', 'web', { user: 'root', os: 'linux' });
  const graph = compileGraph(pb, inv);
  const before = f.server.commands.length;
  const connection = await f.open();
  try {
    const report = await runGraph(graph, inv, prebuildSteps(graph, inv), {
      mode: 'apply',
      forks: 1,
      timeoutMs: 10_000,
      connect: async () => connection,
    });
    return { report, commands: f.server.commands.slice(before) };
  } finally {
    await connection.close();
  }
}

const statuses = (r: RunReport) =>
  r.hosts.h1!.steps.map((s) => `${s.task}: ${s.status}${s.error ? ` ${s.error}` : ''}`);

test('a first apply and a re-run each open one session: every round trip goes through the shell', async (t) => {
  const f = await fixture(t);
  const pb = playbook(f.dir);
  const first = await run(f, pb);
  const again = await run(f, pb);
  // The one session: the kept shell, with the first probe riding in its exec request.
  const shells = (commands: string[]) =>
    commands.map((c) => c.startsWith('exec /bin/sh -c ') && c.includes(`${f.dir}/srv`));
  t.deepEqual(
    [shells(first.commands), statuses(first.report), shells(again.commands), statuses(again.report)],
    [
      [true],
      ['dir: changed', 'copy: changed', 'line: changed', 'init: changed'],
      [true],
      ['dir: ok', 'copy: ok', 'line: ok', 'init: ok'],
    ],
  );
  t.is(readFileSync(join(f.dir, 'srv/app.conf'), 'utf8'), 'host=h1\n');
  t.is(readFileSync(join(f.dir, 'srv/settings.ini'), 'utf8'), 'port=8080\n');
});

test("a secret input never travels in the shell's stream: its apply goes as an exec of its own", async (t) => {
  const f = await fixture(t);
  const value = 'correct-horse-battery-staple';
  const { report, commands } = await run(f, playbook(f.dir, new Secret(value, 'env:TOKEN')));
  t.true(
    statuses(report).every((s) => s.endsWith(': changed')),
    statuses(report).join('\n'),
  );
  t.is(readFileSync(join(f.dir, 'srv/token'), 'utf8'), value);
  t.true(commands[0]!.startsWith('exec /bin/sh -c '), commands[0]);
  t.is(commands.length, 2, commands.join('\n---\n'));
  t.regex(commands[1]!, /^timeout -k 5 \d+ \/bin\/sh -c /);
  t.false(commands.some((c) => c.includes(value)));
});

test('a command sent while the shell is busy goes as an exec, at once', async (t) => {
  const f = await fixture(t);
  const connection = await f.open();
  t.teardown(() => connection.close());
  const slow = connection.script('sleep 0.5; echo slow');
  t.is(await connection.script('echo fast'), null);
  t.deepEqual(await slow, { stdout: 'slow\n', stderr: '', code: 0 });
  t.deepEqual(await connection.script('echo next', { stdin: 'in' }), { stdout: 'next\n', stderr: '', code: 0 });
  t.deepEqual(f.server.commands, ['exec /bin/sh']);
});

test('a host that will not keep a shell costs one try: every round trip after it goes as an exec', async (t) => {
  const f = await fixture(t, { server: { refuseExec: (command) => command.startsWith('exec /bin/sh') } });
  const { report, commands } = await run(f, playbook(f.dir));
  t.deepEqual(statuses(report), ['dir: changed', 'copy: changed', 'line: changed', 'init: changed']);
  t.is(f.server.refused.length, 1, f.server.refused.join('\n---\n'));
  // The probe, the directory's apply, then its dependents': without a kept shell none rides guarded.
  t.is(commands.length, 3, commands.join('\n'));
  t.true(
    commands.every((c) => c.startsWith('timeout ') || c.startsWith('/bin/sh -c ')),
    commands.join('\n'),
  );
});
