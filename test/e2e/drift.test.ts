// play drift end to end: the real CLI over real SSH against the shared lab (tor hosts with real
// keepalived, simulated Windows nodes running our PowerShell, the simulated cluster). Converged, then
// three hand changes (a line of tor2's keepalived.conf, W32Time stopped on node009, node010's kubelet
// binPath): exactly those three items, new, then persisting with their first-seen times, one resolved
// when tor2 is fixed; an unreachable host is reported as such (exit 4), never as drift; and no drift
// run changes a host (state files and keepalived.conf byte-identical before and after).
//
// Holds the tor-hosts lock (fixtures/lab-locks.ts) like the other tests that use the tor hosts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { setWindowsNodeFaults } from '../../lab/windows-reset.js';
import { ensureLab, type Lab, onLabHost } from '../helpers/lab.js';
import { play, projectRoot } from '../helpers/play.js';
import { onboardInventory } from './fixtures/onboard-lab.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { stopKeepalived, TORS } from './fixtures/tor-hosts.js';

const CONF = '/etc/keepalived/keepalived.conf';
const NODES = ['node009', 'node010'];
/** The lab may hold more Windows nodes (other tests bring up node011): the hosts this file judges. */
const LIMIT = ['tor*', 'control1', ...NODES].join(':');

let lab: Lab;
let dir: string;
let inventory: string;
let state: string;
let env: NodeJS.ProcessEnv;
let release: (() => Promise<void>) | undefined;
/** What the webhook receiver (a local HTTP server) got from --notify, in order. */
const messages: any[] = [];
let hook: Server | undefined;
let hookUrl: string;

/** One drift run; every one of them must leave the hosts byte-identical (checked here, each time). */
const drift = async (args: string[] = [], inv = inventory) => {
  const before = await hostsSnapshot();
  const r = await play(
    ['drift', '-i', inv, '--state', state, '--limit', LIMIT, '--notify', hookUrl, '--json', ...args],
    env,
  );
  if ((await hostsSnapshot()) !== before) throw new Error(`play drift ${args.join(' ')} changed a host`);
  return { ...r, run: r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : null };
};

/** `promtool check metrics` on a file: null when it passes, its complaint otherwise; 'absent' without promtool. */
function promtool(file: string): Promise<string | null> {
  return new Promise((done) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e: NodeJS.ErrnoException) => done(e.code === 'ENOENT' ? 'absent' : e.message));
    child.on('close', (code) => done(code === 0 ? null : out || `exit ${code}`));
    child.stdin.end(readFileSync(file));
  });
}
const summary = (run: any) =>
  run.items.map((i: any) => `${i.status} ${i.host} ${i.playbook}/${i.task} ${i.fields.join(',')}`).sort();

/** What a drift run must never change: the Windows nodes' state files and the tor hosts' config. */
async function hostsSnapshot(): Promise<string> {
  const labDir = dirname(lab.inventoryPath);
  const nodes = NODES.map((n) => readFileSync(join(labDir, 'hosts', n, 'node-state.json'), 'utf8'));
  const tors = await Promise.all(TORS.map((t) => onLabHost(lab, t, `cat ${CONF}`)));
  return JSON.stringify([nodes, tors]);
}

async function mustPlay(args: string[]): Promise<void> {
  const r = await play([...args, '-i', inventory], env);
  if (r.code !== 0)
    throw new Error(`play ${args.join(' ')}: exit ${r.code}: ${r.stdout.slice(-2000)}${r.stderr.slice(-2000)}`);
}

test.before(async () => {
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      messages.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hook!.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/drift`;
  release = await holdTorHosts();
  lab = await ensureLab({ linux: 4, tor: 3, windows: 2, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-drift-'));
  state = join(dir, 'state.db');
  ({ inventory, env } = onboardInventory(lab, dir));
  await mustPlay(['onboard-windows', '--limit', NODES.join(':')]);
  await mustPlay(['tor-gateway']);
});

test.after.always(async (t) => {
  hook?.close();
  try {
    if (lab) await stopKeepalived(lab, t);
    if (dir) rmSync(dir, { recursive: true, force: true });
  } finally {
    await release?.();
  }
});

test.serial('converged: exit 0, no drift, and the run changed nothing', async (t) => {
  const before = await hostsSnapshot();
  const r = await drift();
  t.is(r.code, 0, r.stdout.slice(-3000) + r.stderr);
  t.deepEqual(r.run.items, []);
  t.deepEqual(r.run.playbooks, ['onboard-windows', 'tor-gateway']);
  t.deepEqual(messages, [], 'nothing new, nothing resolved: no message');
  t.is(await hostsSnapshot(), before);
});

let firstSeen: Record<string, string>;

test.serial(
  'three hand changes: exit 2, exactly those three items, new; again: persisting, first seen unchanged',
  async (t) => {
    await onLabHost(lab, 'tor2', `sed -i 's/advert_int 1/advert_int 3/' ${CONF}`);
    await mustPlay([resolve(projectRoot, 'test/e2e/fixtures/drift-hand-edits.ts')]);
    const before = await hostsSnapshot();
    const out = (name: string) => join(dir, name);
    const r = await drift(
      ['--junit', out('drift.xml'), '--html', out('drift.html')].concat([
        '--markdown',
        out('drift.md'),
        '--metrics',
        out('drift.prom'),
      ]),
    );
    t.is(r.code, 2, r.stderr);
    const junit = readFileSync(out('drift.xml'), 'utf8');
    t.is(junit.match(/<failure /g)?.length, 3, 'one JUnit failure per drift item');
    const html = readFileSync(out('drift.html'), 'utf8');
    t.true(['tor2', 'node009', 'node010'].every((h) => html.includes(h)));
    t.false(/https?:\/\//.test(html), 'the page fetches nothing');
    t.regex(readFileSync(out('drift.md'), 'utf8'), /3 new/);
    const promCheck = await promtool(out('drift.prom'));
    if (promCheck === 'absent') t.log('promtool is not installed (Debian: apt-get install prometheus): not checked');
    else t.is(promCheck, null, 'promtool check metrics accepts --metrics');
    t.regex(
      readFileSync(out('drift.prom'), 'utf8'),
      /^play_drift_items\{host="tor2",playbook="tor-gateway",status="new"\} 1$/m,
    );
    t.deepEqual(summary(r.run), [
      'new node009 onboard-windows/ntp w32time',
      'new node010 onboard-windows/kubelet binPath',
      'new tor2 tor-gateway/config content',
    ]);
    const kubelet = r.run.items.find((i: any) => i.host === 'node010');
    t.regex(kubelet.before.binPath, / --v=4$/);
    t.deepEqual(r.run.items.find((i: any) => i.host === 'node009').before, { w32time: 'Auto, stopped' });
    t.regex(r.run.items.find((i: any) => i.host === 'tor2').textDiff, /-\s+advert_int 3\n\+\s+advert_int 1/);
    t.false(JSON.stringify(r.run).includes(env.VRRP_AUTH_PASS!), 'the VRRP password is masked everywhere');
    firstSeen = Object.fromEntries(r.run.items.map((i: any) => [i.host, i.firstSeen]));
    t.is(messages.length, 1, 'one message for the run with new items');
    t.deepEqual(messages[0].new.map((i: any) => i.host).sort(), ['node009', 'node010', 'tor2']);
    t.false(JSON.stringify(messages[0]).includes(env.VRRP_AUTH_PASS!), 'no secret in the message');

    const again = await drift();
    t.is(again.code, 2);
    t.deepEqual(
      summary(again.run),
      summary(r.run).map((s: string) => s.replace(/^new/, 'persisting')),
    );
    t.deepEqual(Object.fromEntries(again.run.items.map((i: any) => [i.host, i.firstSeen])), firstSeen);
    t.is(messages.length, 1, 'persisting items only: no message');
    t.is(await hostsSnapshot(), before, 'no drift run changes a host');
  },
);

test.serial('tor2 fixed by hand: one resolved item, the others persist; history and show read the store', async (t) => {
  await onLabHost(lab, 'tor2', `sed -i 's/advert_int 3/advert_int 1/' ${CONF}`);
  const r = await drift();
  t.is(r.code, 2);
  t.deepEqual(summary(r.run), [
    'persisting node009 onboard-windows/ntp w32time',
    'persisting node010 onboard-windows/kubelet binPath',
    'resolved tor2 tor-gateway/config content',
  ]);
  t.is(messages.length, 2, 'one message for the resolved item');
  t.deepEqual([messages[1].new, messages[1].resolved.map((i: any) => i.host)], [[], ['tor2']]);
  const history = await play(['drift', 'history', '--state', state], env);
  t.is(history.code, 0);
  t.regex(history.stdout, new RegExp(`^\\s+${r.run.id}\\s.*\\s2\\s+0\\s+2\\s+1\\s`, 'm'));
  const show = await play(['drift', 'show', 'latest', '--state', state, '--host', 'node01*', '--json'], env);
  t.deepEqual(
    JSON.parse(show.stdout).items.map((i: any) => i.host),
    ['node010'],
  );
});

test.serial(
  "a waiver (waivers.yml beside the inventory) for node010's kubelet: waived with its reason; once expired, drift again",
  async (t) => {
    const waivers = join(dir, 'waivers.yml');
    const write = (expires: string) =>
      writeFileSync(
        waivers,
        `- hosts: node010\n  playbook: onboard-windows\n  task: kubelet\n  fields: [binPath]\n  reason: vendor asked for verbose logs, OPS-123\n  expires: ${expires}\n`,
      );
    write('2099-12-31');
    const r = await drift();
    t.is(r.code, 2, 'node009 still drifts');
    const kubelet = r.run.items.find((i: any) => i.host === 'node010');
    t.like(kubelet.waiver, { reason: 'vendor asked for verbose logs, OPS-123', expires: '2099-12-31', expired: false });
    t.like(r.run.counts, { waived: 1, drifted: 1 });

    write('2020-01-01');
    const expired = await drift();
    t.like(expired.run.items.find((i: any) => i.host === 'node010').waiver, { expired: true });
    t.like(expired.run.counts, { waived: 0, drifted: 2 });
    t.true(
      expired.run.warnings.some((w: string) => /expired on 2020-01-01/.test(w)),
      expired.run.warnings.join('\n'),
    );
    const text = await play(['drift', 'show', 'latest', '--state', state], env);
    t.regex(text.stdout, /\[waiver expired 2020-01-01: vendor asked for verbose logs, OPS-123\]/);
    rmSync(waivers);
  },
);

test.serial(
  'an unreachable host is reported as unreachable, never as drift or ok: exit 4 when nothing drifted',
  async (t) => {
    await mustPlay(['onboard-windows', '--limit', NODES.join(':')]);
    const inv = YAML.parse(readFileSync(inventory, 'utf8'));
    inv.all.children.tor.hosts.tor3.ansible_port = 1;
    const broken = join(dir, 'inventory-tor3-down.yaml');
    writeFileSync(broken, YAML.stringify(inv));
    const r = await drift([], broken);
    t.is(r.code, 4, r.stdout.slice(-2000) + r.stderr);
    t.deepEqual(
      r.run.items.filter((i: any) => i.status !== 'resolved'),
      [],
    );
    t.deepEqual(
      r.run.problems.map((p: any) => [p.host, p.kind]),
      [['tor3', 'unreachable']],
    );
  },
);

test.serial(
  '--every: runs on its ticks, never two at once (a slow run skips a tick), SIGTERM finishes the run and exits 0',
  async (t) => {
    const loopState = join(dir, 'loop.db');
    // node009 answers each command 1.5 s late: every run outlasts the 1 s tick.
    await setWindowsNodeFaults('node009', { latencyMs: 1500 });
    const before = await hostsSnapshot();
    t.teardown(() => setWindowsNodeFaults('node009', null));
    const child = spawn(
      process.execPath,
      [
        resolve(projectRoot, 'bin/play.mjs'),
        'drift',
        '-i',
        inventory,
        '--state',
        loopState,
        '--limit',
        LIMIT,
        '--every',
        '1s',
      ],
      { cwd: projectRoot, env: { ...process.env, PLAY_INVENTORY: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    // Until two runs have finished, then stop it.
    for (let i = 0; i < 300 && (stderr.match(/run finished/g)?.length ?? 0) < 2; i++)
      await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    t.is(await exited, 0, stderr);
    t.is(await hostsSnapshot(), before, 'no run of the loop changed a host');
    t.regex(stderr, /SIGTERM: finishing the current run, then stopping/);
    t.regex(stderr, /skipped (the \S+ run|\d+ runs \(.+\)): the run of \S+ was still going/);
    const history = JSON.parse(
      (await play(['drift', 'history', '--state', loopState, '--json'], env)).stdout,
    ).reverse();
    t.true(history.length >= 2, `${history.length} runs`);
    for (let i = 1; i < history.length; i++) {
      const end = Date.parse(history[i - 1].startedAt) + history[i - 1].durationMs;
      t.true(
        Date.parse(history[i].startedAt) >= end,
        `run ${history[i].id} started after run ${history[i - 1].id} ended`,
      );
    }
  },
);
