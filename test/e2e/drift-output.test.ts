// play drift shows what it does as a playbook run does, through the real CLI over real SSH against lab
// hosts: -v (each check step, every line stamped), --events (JSON Lines of the check runs, `-` for
// stdout with the drift report on stderr), --log (-vv detail with ISO times), and with --every one
// events file that holds every tick's runs, one after another.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { driftLoop, play, projectRoot, scratch } from '../helpers/play.js';
import { bounded, waitFor } from '../helpers/wait.js';

const PLAYBOOK = resolve(projectRoot, 'test/e2e/playbooks/files.ts');
const HOST = 'linux6';
let lab: Lab;
let dir: string;
let inventory: string;

test.before(async () => {
  lab = await ensureLab({ linux: 6 });
  dir = mkdtempSync(join(tmpdir(), 'play-drift-output-'));
  // The lab's linux hosts with a directory that does not exist: the files playbook drifts (create).
  const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  inv.all.children = { linux: { ...inv.all.children.linux, vars: { dir: scratch('drift-output') } } };
  inventory = join(dir, 'inventory.yaml');
  writeFileSync(inventory, YAML.stringify(inv));
});

test.after.always(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const lines = (text: string) => text.replace(/\n$/, '').split('\n');
const drift = (more: string[], state = join(mkdtempSync(join(dir, 'run-')), 'state.db')) =>
  play(['drift', PLAYBOOK, '-i', inventory, '-l', HOST, '--state', state, ...more], { PLAY_HEARTBEAT_SEC: '' });

test('-v: each check step with its start and end, stamped; --log keeps -vv with ISO times', async (t) => {
  const log = join(dir, 'drift.log');
  const r = await drift(['-v', '--log', log]);
  t.is(r.code, 2, r.stdout + r.stderr);
  t.regex(r.stdout, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${HOST} › dir: start$`, 'm'));
  t.regex(r.stdout, new RegExp(`^\\d\\d:\\d\\d:\\d\\d ${HOST} › note: .+ in \\d+\\.\\d\\d s$`, 'm'));
  t.regex(r.stdout, /^drift run 1: 2 items drifted/m, 'the drift report follows');
  const logText = readFileSync(log, 'utf8');
  for (const line of lines(logText)) t.regex(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /);
  t.regex(logText, /Z run files \(check\) on 1 host, inventory /);
  t.regex(logText, new RegExp(`Z ${HOST} \\[send\\] probe: `));
  t.regex(logText, /Z run files done in \d+\.\d\d s: 0 ok, 1 changed, 0 failed/);
});

test('--events -: the check runs as JSON Lines on stdout, the inventory line and the drift report on stderr', async (t) => {
  const r = await drift(['--events', '-']);
  t.is(r.code, 2, r.stdout + r.stderr);
  const events = lines(r.stdout).map((l) => JSON.parse(l));
  t.deepEqual(
    events.map((e) => (e.task ? `${e.type} ${e.task}` : e.type)),
    [
      'run-start',
      'host-start',
      'step-start dir',
      'step-done dir',
      'step-start note',
      'step-done note',
      'host-done',
      'run-done',
    ],
  );
  t.like(events[0], { playbook: 'files', mode: 'check', hosts: [HOST], inventory });
  t.deepEqual(
    events.filter((e) => e.type === 'step-done').map((e) => [e.task, e.status, e.action]),
    [
      ['dir', 'changed', 'create'],
      ['note', 'changed', 'create'],
    ],
  );
  t.true(r.stderr.startsWith(`inventory: ${inventory} (from -i)\n`), r.stderr);
  t.regex(r.stderr, /^drift run 1: 2 items drifted/m);
});

test('--events - with --json: one message naming both flags, exit 64', async (t) => {
  const r = await drift(['--events', '-', '--json']);
  t.is(r.code, 64, r.stdout + r.stderr);
  t.is(r.stderr, 'play: --events - and --json both write to stdout: give --events a FILE (or drop --json)\n');
  t.is(r.stdout, '');
});

test("--every: the events file gets each tick's runs, appended, not started afresh per tick", async (t) => {
  const events = join(dir, 'loop-events.jsonl');
  const state = join(dir, 'loop.db');
  const args = ['drift', PLAYBOOK, '-i', inventory, '-l', HOST, '--state', state, '--events', events];
  const loop = driftLoop(t, args, '1s');
  const stderr = loop.stderr;
  await waitFor('two drift runs finished', () => (stderr().match(/run finished, exit 2/g)?.length ?? 0) >= 2, 60_000);
  loop.child.kill('SIGTERM');
  t.is(await bounded('the loop stopping', loop.exited, 60_000), 0, stderr());
  const finished = stderr().match(/run finished, exit 2/g)!.length;
  const types = lines(readFileSync(events, 'utf8')).map((l) => JSON.parse(l).type);
  t.is(types.filter((x) => x === 'run-start').length, finished, stderr());
  t.is(types.filter((x) => x === 'run-done').length, finished);
  t.deepEqual(types.slice(0, 2), ['run-start', 'host-start'], 'the first tick is still in the file');
  t.is(types.at(-1), 'run-done');
});
