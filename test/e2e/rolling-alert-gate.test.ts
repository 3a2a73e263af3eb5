// A rolling run's alert gate and notices end to end, as a user types it: `play PLAYBOOK --serial 1
// --gate-prometheus URL --gate-alert NAME --notify URL` on three lab Linux hosts (a serial run: batches,
// no cluster phases), against the Prometheus HTTP API double (test/helpers/prometheus-double.ts, a TEST
// DOUBLE) and a local HTTP receiver for the notices. Each run has its own inventory file (the rolling
// lease's key) and its own directories, so no other test's hosts or lease are touched.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { ensureLab, type Lab, sshRun } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';
import { firing, prometheusDouble } from '../helpers/prometheus-double.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ linux: 3 });
});

const HOSTS = ['linux1', 'linux2', 'linux3'];
const PLAYBOOK = resolve(projectRoot, 'test/e2e/playbooks/gated.ts');

/** An inventory of linux1..3 alone, in a directory of the test's own (with the state store). */
function workdir(t: ExecutionContext): { dir: string; inventory: string; state: string; prefix: string } {
  const dir = mkdtempSync(join(tmpdir(), 'play-alert-gate-'));
  const prefix = scratch('alert-gate');
  t.teardown(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const h of HOSTS) await sshRun(lab, lab.host(h), `rm -rf '${prefix}-${h}'`);
  });
  const hosts = HOSTS.map((h) => `        ${h}: { ansible_host: ${lab.host(h).address} }`).join('\n');
  const inventory = join(dir, 'inventory.yaml');
  writeFileSync(
    inventory,
    `all:\n  vars:\n    ansible_user: root\n    ansible_ssh_private_key_file: ${lab.keyPath}\n` +
      `    ansible_ssh_common_args: -o UserKnownHostsFile=${lab.knownHostsPath}\n  children:\n    linux:\n      hosts:\n${hosts}\n`,
  );
  return { dir, inventory, state: join(dir, 'state.db'), prefix };
}

/** Which hosts have their directory, each asked over SSH. */
const made = (prefix: string) =>
  Promise.all(HOSTS.map(async (h) => (await sshRun(lab, lab.host(h), `test -d '${prefix}-${h}'`)).code === 0));

/** A local webhook receiver: the bodies it got, in order. */
async function receiver(t: ExecutionContext) {
  const bodies: { event: string; text: string; batch?: number }[] = [];
  const s = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => s.close(() => r())));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hooks/T0K3N`, bodies };
}

test('an alert firing after the canary pauses the run before batch 2 (exit 75); --resume once it cleared finishes it, notices in order', async (t) => {
  const w = workdir(t);
  const prom = await prometheusDouble({
    // The first ask (before the canary) is clear; from the second on, NodeDown fires on linux1.
    alerts: (ask) => (ask === 1 ? [] : [firing('NodeDown', { instance: 'linux1', severity: 'page' })]),
  });
  t.teardown(() => prom.close());
  const hook = await receiver(t);
  const common = ['-i', w.inventory, '--state', w.state, '--no-live', '--notify', hook.url];
  const first = await play([
    PLAYBOOK,
    ...common,
    '--serial',
    '1',
    '-e',
    `dir=${w.prefix}`,
    '--gate-prometheus',
    prom.url,
    '--gate-alert',
    'NodeDown',
    '--gate-query',
    'up{job="node"} == 0',
  ]);
  t.is(first.code, 75, first.stdout + first.stderr);
  t.regex(
    first.stdout,
    /^run \d+ paused: alert gate before batch 2 of 3: alert NodeDown firing \{instance="linux1", severity="page"\}$/m,
  );
  t.regex(first.stdout, /^resume with: play gated --resume$/m);
  t.regex(first.stdout, /\* {11} alerts {4}FAILED {2}alert NodeDown firing/);
  t.deepEqual(await made(w.prefix), [true, false, false], 'the canary ran; the next batches did not');

  prom.state.alerts = [];
  const second = await play([PLAYBOOK, ...common, '--resume']);
  t.is(second.code, 0, second.stdout + second.stderr);
  t.regex(second.stdout, /^run \d+ done$/m);
  t.deepEqual(await made(w.prefix), [true, true, true]);
  t.deepEqual(
    hook.bodies.map((b) => (b.batch ? `${b.event} ${b.batch}` : b.event)),
    ['started', 'batch-done 1', 'paused', 'resumed', 'batch-done 2', 'batch-done 3', 'done'],
  );
  t.regex(hook.bodies[2]!.text, /paused: alert gate before batch 2 of 3: alert NodeDown firing \{instance="linux1"/);
  const queries = prom.requests.filter((r) => r.startsWith('GET /api/v1/query?'));
  t.deepEqual(
    [queries.length, new URL(`http://x${queries[0]}`.replace('GET ', '')).searchParams.get('query')],
    [4, 'up{job="node"} == 0'],
    'asked before batches 1, 2 (paused), 2 again and 3',
  );
  t.false(
    `${first.stdout}${first.stderr}${second.stdout}${second.stderr}`.includes('T0K3N'),
    'the webhook token never shows',
  );
});

test('Prometheus unreachable: the gate fails closed and pauses before the first batch, nothing changed', async (t) => {
  const w = workdir(t);
  const prom = await prometheusDouble();
  const url = prom.url;
  await prom.close();
  const r = await play([
    PLAYBOOK,
    '-i',
    w.inventory,
    '--state',
    w.state,
    '--no-live',
    '--serial',
    '1',
    '-e',
    `dir=${w.prefix}`,
    '--gate-prometheus',
    url,
    '--gate-alert',
    'NodeDown',
  ]);
  t.is(r.code, 75, r.stdout + r.stderr);
  t.regex(
    r.stdout,
    new RegExp(
      `^run \\d+ paused: alert gate before batch 1 of 3: Prometheus ${url.replace(/\./g, '\\.')} could not tell \\(the gate holds until it can\\): alert NodeDown: unreachable \\(ECONNREFUSED\\)$`,
      'm',
    ),
  );
  t.deepEqual(await made(w.prefix), [false, false, false]);
});

test('bad gate flags are refused before any host is touched (64), naming the flag', async (t) => {
  const w = workdir(t);
  const base = [PLAYBOOK, '-i', w.inventory, '--state', w.state, '--serial', '1', '-e', `dir=${w.prefix}`];
  const rows = {
    'a query without Prometheus': [...base, '--gate-query', 'up == 0'],
    'credentials in the URL': [...base, '--gate-prometheus', 'http://u:pw@127.0.0.1:9', '--gate-alert', 'A'],
    'a --notify that is not http': [...base, '--notify', 'ftp://hooks.example.com/T0K3N'],
  };
  const results: Record<string, [number, string]> = {};
  for (const [name, argv] of Object.entries(rows)) {
    const r = await play(argv);
    results[name] = [r.code, r.stderr.trim().split('\n').at(-1)!];
  }
  t.deepEqual(results, {
    'a query without Prometheus': [64, 'play: --gate-query: needs --gate-prometheus URL, the Prometheus to ask'],
    'credentials in the URL': [
      64,
      'play: --gate-prometheus: credentials in the URL would be recorded in the journal; set PLAY_PROMETHEUS_TOKEN (a bearer token) or PLAY_PROMETHEUS_USER and PLAY_PROMETHEUS_PASSWORD instead',
    ],
    'a --notify that is not http': [
      64,
      'play: --notify ftp://hooks.example.com/…: expected an http:// or https:// URL',
    ],
  });
  t.deepEqual(await made(w.prefix), [false, false, false]);
});
