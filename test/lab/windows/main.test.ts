// The simulated Windows node (a test double) as its own process (lab/windows/main.ts): it listens
// where told (only loopback or lab addresses), writes its pidfile, reloads faults on SIGHUP and stops
// cleanly on SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ps, session, tempDir, PASSWORD } from './helpers.js';

const MAIN = new URL('../../../lab/windows/main.ts', import.meta.url).pathname;

test('main.ts runs a node as a process: pidfile, password from the environment, faults on SIGHUP, clean stop', async (t) => {
  const dir = tempDir(t);
  const pidfile = join(dir, 'node.pid');
  const faults = join(dir, 'faults.json');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      '--name',
      'win1',
      '--state',
      join(dir, 'state.json'),
      '--host-key',
      join(dir, 'host_key'),
      '--listen',
      '127.0.0.1:0',
      '--faults-file',
      faults,
      '--pidfile',
      pidfile,
    ],
    { env: { ...process.env, PLAY_LAB_WINDOWS_PASSWORD: PASSWORD }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  t.teardown(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start line: ${out}`)), 20_000);
    child.stdout.on('data', () => {
      const m = /simulated Windows node up on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
  t.is(readFileSync(pidfile, 'utf8').trim(), String(child.pid));
  const { session: s } = session(t, { port, dir });
  t.like((await s.callPowerShell([ps('Get-PlayOsInfo', {})]))[0], { ok: true, value: { build: 17763 } });
  writeFileSync(faults, JSON.stringify({ authFailure: true }));
  child.kill('SIGHUP');
  await new Promise((r) => setTimeout(r, 300));
  t.regex(out, /faults now \{"latencyMs":0,"dropConnectionOnCommand":null,"hangFunction":null,"authFailure":true[,}]/);
  const { session: refused } = session(t, { port, dir });
  await t.throwsAsync(refused.callPowerShell([ps('Get-PlayOsInfo', {})]), { message: /authentication failed/ });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  t.is(await exited, 0);
  t.false(existsSync(pidfile));
  t.regex(readFileSync(join(dir, 'state.json'), 'utf8'), /"hostname": "win1"/);
});

test('main.ts listens only on loopback or lab addresses', (t) => {
  const dir = tempDir(t);
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      MAIN,
      '--name',
      'w',
      '--state',
      join(dir, 's'),
      '--host-key',
      join(dir, 'k'),
      '--listen',
      '10.0.0.5:22',
    ],
    { encoding: 'utf8' },
  );
  t.is(r.status, 64);
  t.regex(r.stderr, /--listen 10\.0\.0\.5: only loopback and lab addresses \(198\.18\.0\.0\/15\) are allowed/);
});
