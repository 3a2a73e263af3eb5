// `play drift --every` keeps each host's SSH connection between its runs, end to end against two lab
// hosts: the first run opens both, the next reuse them; then the sshd process serving one of our
// connections is killed on its host (found by the connection's ports, so no other test's connection
// is touched), and the next run reopens it and checks both hosts as before. The loop's own log line
// after each run is what the user sees of it. The bench playbook is only planned: no host changes.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { ensureLab, onLabHost, runLocal } from '../helpers/lab.js';
import { driftLoop, play, projectRoot, scratch } from '../helpers/play.js';

/** The users of established TCP connections whose line matches `match` (`ss -tnp`), in a namespace or not. */
async function connections(netns: string | null, match: (line: string) => boolean): Promise<string[]> {
  const argv = ['ss', '-tnpH', 'state', 'established'];
  const r = netns ? await runLocal('ip', ['netns', 'exec', netns, ...argv]) : await runLocal(argv[0]!, argv.slice(1));
  return r.stdout.split('\n').filter(match);
}

/** Kills the sshd processes serving `pid`'s connection to `address`:22 on lab host `netns`; their pids. */
async function killSshdServing(pid: number, address: string, netns: string): Promise<number[]> {
  const ours = await connections(null, (l) => l.includes(` ${address}:22 `) && l.includes(`pid=${pid},`));
  if (ours.length !== 1) throw new Error(`expected one connection of pid ${pid} to ${address}: ${ours.join('\n')}`);
  const port = /\s198\.18\.\d+\.\d+:(\d+)\s/.exec(ours[0]!)![1]!;
  const served = await connections(netns, (l) => new RegExp(`:22\\s+198\\.18\\.\\d+\\.\\d+:${port}\\s`).test(l));
  const pids = served.flatMap((l) => [...l.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])));
  if (pids.length === 0) throw new Error(`no sshd serves port ${port} on ${netns}`);
  for (const p of pids) process.kill(p, 'SIGKILL');
  return pids;
}

test('play drift --every: connections kept between runs; one killed on its host is reopened by the next run', async (t) => {
  const lab = await ensureLab({ linux: 2 });
  const [a, b] = ['linux1', 'linux2'].map((n) => lab.host(n));
  const dir = mkdtempSync(join(tmpdir(), 'play-kept-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const argv = ['drift', 'bench', '-i', lab.inventoryPath, '-l', `${a!.name}:${b!.name}`, '--state', join(dir, 's.db')];
  const loop = driftLoop(t, argv, '4s');
  // Exit 0 or 2 (drift) as the hosts are (the bench playbook is only planned); never 3 or 4.
  const lines = (stderr = loop.stderr()) =>
    [...stderr.matchAll(/play drift: (connections: .*|run finished, exit \d+)$/gm)].map((m) =>
      m[1]!.replace(/exit [02]$/, 'exit 0 or 2'),
    );
  const runsDone = (n: number) => loop.until(n, (e) => lines(e).filter((l) => l.startsWith('connections')).length);

  await runsDone(2);
  // Between runs (the loop waits for its next 4 s tick): the sshd serving our connection to linux2 dies.
  const killed = await killSshdServing(loop.child.pid!, b!.address, b!.name);
  t.true(killed.length > 0);
  await runsDone(3);
  loop.child.kill('SIGTERM');
  t.is(await loop.exited, 0, loop.stderr());
  t.deepEqual(lines().slice(0, 6), [
    'connections: 0 reused, 2 opened, 2 kept open',
    'run finished, exit 0 or 2',
    'connections: 2 reused, 0 opened, 2 kept open',
    'run finished, exit 0 or 2',
    'connections: 2 reused (1 reopened after a drop), 0 opened, 2 kept open',
    'run finished, exit 0 or 2',
  ]);
});

test('play drift --every: an inventory edited between runs is what the next run reads', async (t) => {
  const lab = await ensureLab({ linux: 2 });
  const dir = mkdtempSync(join(tmpdir(), 'play-kept-inventory-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // The lab's inventory with its linux group cut to `names`, in a file of this test's own.
  const lab0 = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  const inventory = join(dir, 'inventory.yaml');
  const write = (names: string[]) => {
    const hosts = Object.fromEntries(names.map((n) => [n, lab0.all.children.linux.hosts[n]]));
    writeFileSync(inventory, YAML.stringify({ all: { ...lab0.all, children: { linux: { hosts } } } }));
  };
  write(['linux1']);
  const loop = driftLoop(t, ['drift', 'bench', '-i', inventory, '-l', 'linux', '--state', join(dir, 's.db')], '2s');
  const connectionLines = (stderr = loop.stderr()) =>
    [...stderr.matchAll(/play drift: (connections: .*)$/gm)].map((m) => m[1]!);
  await loop.until(1, (e) => connectionLines(e).length);
  write(['linux1', 'linux2']);
  // The next run to start after the write reads it (under load, a run may already have begun).
  await loop.until(1, (e) => connectionLines(e).filter((l) => l.startsWith('connections: 2 reused')).length);
  loop.child.kill('SIGTERM');
  t.is(await loop.exited, 0, loop.stderr());
  const seen = connectionLines();
  const grown = seen.findIndex((l) => l.endsWith('2 kept open'));
  t.true(grown >= 1, seen.join('\n'));
  t.deepEqual(seen.slice(0, grown + 2), [
    'connections: 0 reused, 1 opened, 1 kept open',
    ...Array<string>(grown - 1).fill('connections: 1 reused, 0 opened, 1 kept open'),
    'connections: 1 reused, 1 opened, 2 kept open',
    'connections: 2 reused, 0 opened, 2 kept open',
  ]);
});

/** A playbook managing a file whole and a line of another in `dir`, written to `at`. */
function readsPlaybook(at: string, dir: string): string {
  const path = join(at, 'kept-reads.ts');
  const from = (p: string) => JSON.stringify(resolve(projectRoot, p));
  writeFileSync(
    path,
    `import { definePlaybook } from ${from('runner/playbook/define.js')};
import { directory, file, lineInFile } from ${from('tasks/linux/index.js')};
const dir = ${JSON.stringify(dir)};
export default definePlaybook({
  name: 'kept-reads',
  description: 'test: a file and a line, checked every tick',
  tasks: {
    dir: { on: 'linux', step: directory({ path: dir, mode: '0755' }) },
    note: { on: 'linux', needs: ['dir'], step: file({ path: dir + '/note', content: 'hello\\n' }) },
    port: { on: 'linux', needs: ['dir'], step: lineInFile({ path: dir + '/app.ini', regexp: '^port=', line: 'port=8080', create: true }) },
  },
});
`,
  );
  return path;
}

// The ticks after the first answer unchanged files from what the connection read before (read-cache.ts);
// a file changed on the host between ticks must be read anew, its drift and its diff as a fresh run sees.
test('play drift --every: a file changed on the host between runs is seen by the next run, with its diff', async (t) => {
  const lab = await ensureLab({ linux: 2 });
  const host = lab.host('linux2')!;
  const dir = scratch('kept-reads');
  const tmp = mkdtempSync(join(tmpdir(), 'play-kept-reads-'));
  t.teardown(async () => {
    rmSync(tmp, { recursive: true, force: true });
    await onLabHost(lab, host.name, `rm -rf ${dir}`);
  });
  const playbook = readsPlaybook(tmp, dir);
  const applied = await play([playbook, '-i', lab.inventoryPath, '-l', host.name, '--no-live']);
  t.is(applied.code, 0, applied.stderr);
  const state = join(tmp, 's.db');
  const argv = ['drift', playbook, '-i', lab.inventoryPath, '-l', host.name, '--state', state];
  const loop = driftLoop(t, argv, '3s');
  const runsDone = (n: number) => loop.until(n, (e) => e.match(/run finished/g)?.length ?? 0);
  await runsDone(2);
  // Same size, other bytes: only the digest tells them apart.
  await onLabHost(lab, host.name, `printf 'port=9090\\n' > ${dir}/app.ini`);
  await runsDone(3);
  await onLabHost(lab, host.name, `printf 'hullo\\n' > ${dir}/note`);
  await runsDone(4);
  loop.child.kill('SIGTERM');
  t.is(await loop.exited, 0, loop.stderr());
  const history = JSON.parse((await play(['drift', 'history', '--state', state, '--json'])).stdout).reverse();
  t.deepEqual(
    history.slice(0, 4).map((r: any) => r.exitCode ?? r.exit),
    [0, 0, 2, 2],
    JSON.stringify(history.slice(0, 4)),
  );
  const last = JSON.parse((await play(['drift', 'show', 'latest', '--state', state, '--json'])).stdout);
  t.deepEqual(last.items.map((i: any) => [i.task, i.status, i.textDiff]).sort(), [
    ['note', 'new', `--- ${dir}/note\n+++ ${dir}/note\n@@ -1 +1 @@\n-hullo\n+hello\n`],
    ['port', 'persisting', `--- ${dir}/app.ini\n+++ ${dir}/app.ini\n@@ -1 +1 @@\n-port=9090\n+port=8080\n`],
  ]);
});
