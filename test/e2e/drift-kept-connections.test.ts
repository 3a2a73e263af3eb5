// `play drift --every` keeps each host's SSH connection between its runs, end to end against two lab
// hosts: the first run opens both, the next reuse them; then the sshd process serving one of our
// connections is killed on its host (found by the connection's ports, so no other test's connection
// is touched), and the next run reopens it and checks both hosts as before. The loop's own log line
// after each run is what the user sees of it. The bench playbook is only planned: no host changes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import { ensureLab, runLocal } from '../helpers/lab.js';
import { projectRoot } from '../helpers/play.js';

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
  const child = spawn(process.execPath, [resolve(projectRoot, 'bin/play.mjs'), ...argv, '--every', '4s'], {
    cwd: projectRoot,
    env: { ...process.env, PLAY_INVENTORY: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  // Exit 0 or 2 (drift) as the hosts are (the bench playbook is only planned); never 3 or 4.
  const lines = () =>
    [...stderr.matchAll(/play drift: (connections: .*|run finished, exit \d+)$/gm)].map((m) =>
      m[1]!.replace(/exit [02]$/, 'exit 0 or 2'),
    );
  const runsDone = async (n: number) => {
    for (let i = 0; i < 600 && lines().filter((l) => l.startsWith('connections')).length < n; i++)
      await new Promise((r) => setTimeout(r, 100));
  };
  child.stderr.on('data', (d) => (stderr += d));
  t.teardown(() => child.kill('SIGKILL'));

  await runsDone(2);
  // Between runs (the loop waits for its next 4 s tick): the sshd serving our connection to linux2 dies.
  const killed = await killSshdServing(child.pid!, b!.address, b!.name);
  t.true(killed.length > 0);
  await runsDone(3);
  child.kill('SIGTERM');
  t.is(await exited, 0, stderr);
  t.deepEqual(lines().slice(0, 6), [
    'connections: 0 reused, 2 opened, 2 kept open',
    'run finished, exit 0 or 2',
    'connections: 2 reused, 0 opened, 2 kept open',
    'run finished, exit 0 or 2',
    'connections: 2 reused (1 reopened after a drop), 0 opened, 2 kept open',
    'run finished, exit 0 or 2',
  ]);
});
