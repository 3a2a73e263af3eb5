// The lab's destructive paths, end to end, in a private lab (sandbox-scenario.ts) that shares nothing
// with the default lab other test files use: its own network namespace for the "root" side, private
// /run/netns (so linux1 there is another namespace), private /etc/netns, lock and lab dir. Needs root.
// Never import sandbox-scenario.ts: it is a program run in the sandbox.
import test from 'ava';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const scenarioFile = fileURLToPath(new URL('./sandbox-scenario.ts', import.meta.url));

interface Result {
  dir: string;
  error?: string;
  cleanupError?: string;
  [key: string]: any;
}

/** Kills sshds and simulated Windows nodes the scenario may have left behind if it crashed (they live
 *  in its private namespaces). */
function killLeftovers(dir: string): void {
  for (const p of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const cmdline = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      const ours = readlinkSync(`/proc/${p}/exe`) === '/usr/sbin/sshd' || cmdline.includes('lab/windows/main.ts');
      if (ours && cmdline.includes(`${dir}/`)) {
        process.kill(Number(p), 'SIGKILL');
      }
    } catch {
      /* gone */
    }
  }
}

const result: Promise<Result> = new Promise((resolve, reject) => {
  execFile(
    'unshare',
    ['--mount', '--net', '--propagation', 'private', '--', process.execPath, '--import', 'tsx', scenarioFile],
    {
      encoding: 'utf8',
      timeout: 100_000,
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      env: {
        ...process.env,
        PLAY_LAB_OUTER_NS: ['mnt', 'net'].map((k) => statSync(`/proc/self/ns/${k}`).ino).join(':'),
      },
    },
    (e, stdout, stderr) => {
      const line = stdout.trim().split('\n').at(-1) ?? '';
      try {
        const r = JSON.parse(line) as Result;
        if (r.dir.startsWith('/run/play-lab/sandbox-')) killLeftovers(r.dir);
        resolve(r);
      } catch {
        reject(new Error(`sandbox scenario failed (${e?.message ?? 'no output'}):\n${stdout}\n${stderr}`));
      }
    },
  );
});

test('the scenario ran to the end and cleaned up', async (t) => {
  const r = await result;
  t.is(r.error, undefined);
  t.is(r.cleanupError, undefined);
  t.is(r.secondDown, 'ok', 'a second labDown is a no-op');
});

test('up from nothing starts every host; each answers with its name; tor hosts have their own /etc/keepalived', async (t) => {
  const r = await result;
  t.deepEqual(r.firstUp, {
    hosts: ['linux1', 'linux2', 'linux3', 'tor1'],
    started: ['linux1', 'linux2', 'linux3', 'tor1'],
  });
  t.deepEqual(r.hostnames, ['linux1', 'linux2', 'linux3', 'tor1']);
  t.is(r.torKeepalivedDir, '0', 'an empty, private /etc/keepalived');
});

test('net.ipv4.ip_forward set on one host changes no other host and not the machine', async (t) => {
  const { forward } = await result;
  t.is(forward.set.code, 0, forward.set.out);
  t.deepEqual(forward.before, { linux1: '0', linux2: '0', outside: '0' });
  t.deepEqual(forward.after, { linux1: '1', linux2: '0', outside: '0' });
});

test('a killed sshd shows as dead in status and up restarts it, keeping its host key and the others', async (t) => {
  const { restart } = await result;
  t.like(restart.statusAfterKill, { name: 'linux2', namespace: true, sshdAlive: false, reachable: false });
  t.not(restart.newPid, restart.killed);
  t.deepEqual(restart.started, ['linux2']);
  t.regex(restart.notes.join('\n'), /restarted sshd on linux2/);
  t.true(restart.sameKey);
  t.true(restart.otherPidsSame);
  t.is(restart.hostname, 'linux2', 'reachable with the unchanged known_hosts');
});

test('a namespace deleted under its sshd is rebuilt and the old sshd stopped', async (t) => {
  const { renamespace } = await result;
  t.deepEqual(renamespace.started, ['linux3']);
  t.false(renamespace.oldAlive);
  t.is(renamespace.hostname, 'linux3');
});

test('concurrent ups from several processes serialize: every host has exactly one sshd', async (t) => {
  const { concurrent } = await result;
  t.deepEqual(concurrent.codes, [0, 0, 0]);
  t.deepEqual(concurrent.hosts, ['linux1', 'linux2', 'linux3', 'linux4', 'linux5', 'tor1', 'tor2']);
  t.true(
    Object.values(concurrent.listeners).every((n) => n === 1),
    JSON.stringify(concurrent.listeners),
  );
  t.deepEqual(concurrent.started, []);
  t.deepEqual(concurrent.kept, ['linux2', 'linux3', 'linux4', 'linux5', 'tor1', 'tor2']);
});

test('up --windows 2 from none starts node009 and node010 (198.18.1.9, .10), alive and reachable', async (t) => {
  const { windows } = await result;
  t.log(`labUp({ windows: 2 }) from none: ${windows.ms} ms`);
  t.deepEqual(windows.started, ['node009', 'node010']);
  t.deepEqual(windows.hosts, [
    ['node009', '198.18.1.9'],
    ['node010', '198.18.1.10'],
  ]);
  t.deepEqual(windows.status, [
    { name: 'node009', alive: true, reachable: true },
    { name: 'node010', alive: true, reachable: true },
  ]);
});

test('up --bastion 1 --behind-bastion 2: private1 and private2 answer through bastion1 only', async (t) => {
  const { jumps } = await result;
  t.deepEqual(jumps.hosts, [
    ['bastion1', '198.18.2.1'],
    ['private1', '198.18.32.11'],
    ['private2', '198.18.32.12'],
  ]);
  t.deepEqual(jumps.started, ['bastion1', 'private1', 'private2']);
  t.is(jumps.direct, 255, 'no way from the root namespace to a private host');
  t.deepEqual(jumps.throughBastion, ['private1', 'private2']);
  t.is(
    jumps.privateRoutes,
    '198.18.32.0/24 dev eth1 proto kernel scope link src 198.18.32.11',
    'no route beyond its /24',
  );
  t.is(jumps.bastionAddresses, 'inet 127.0.0.1/8\ninet 198.18.2.1/24\ninet 198.18.32.1/24');
  t.deepEqual(jumps.status, [
    { name: 'bastion1', alive: true, reachable: true },
    { name: 'private1', alive: true, reachable: true },
    { name: 'private2', alive: true, reachable: true },
  ]);
  t.deepEqual(jumps.inventoryGroups, ['    bastion:', '    private:']);
});

test('down removes namespaces, veths, bridge, route, /etc/netns entries, sshds, simulators and the lab dir', async (t) => {
  const r = await result;
  t.true(r.statusBeforeDown.up);
  const d = r.afterDown;
  t.deepEqual(d.namespaces, []);
  t.deepEqual(d.links, []);
  t.is(d.routes, '');
  t.true(d.etcNetns === null || d.etcNetns.length === 0, JSON.stringify(d.etcNetns));
  t.false(d.labDir);
  t.deepEqual(d.sshdAlive, []);
  t.regex(d.inventoryError, /lab is not up.*play lab up/);
  t.like(d.status, { up: false, bridge: false, hosts: [] });
});
