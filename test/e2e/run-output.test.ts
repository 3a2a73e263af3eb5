// What a run shows and keeps, through the real CLI against lab hosts: -v (every step with its time and
// output tail), --events (JSON Lines, each line valid against docs/schema/events.schema.json), a failed
// step's output on the console, -vv/-vvv detail with a secret never shown, --log, and the heartbeat.
import test from 'ava';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ linux: 4 });
});

const pb = (name: string) => resolve(projectRoot, 'test/e2e/playbooks', `${name}.ts`);
const tmp = () => mkdtempSync(join(tmpdir(), 'play-output-'));
const SECRET = 'obs-Secret-7f3a9c!';
const env = { PLAY_T_OBS_TOKEN: SECRET, PLAY_HEARTBEAT_SEC: '' };
const TOKEN = "token={{ lookup('env', 'PLAY_T_OBS_TOKEN') }}";
const observe = (hosts: string, ...more: string[]) => [
  pb('observe'),
  '-i',
  lab.inventoryPath,
  '-l',
  hosts,
  '-e',
  `dir=${scratch('output')}`,
  '-e',
  TOKEN,
  ...more,
];
/** The published schema leaves objects open for later fields; the suite holds play to it exactly. */
function closed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(closed);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, closed(v)]));
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}
const lines = (text: string) => text.replace(/\n$/, '').split('\n');
/** A line without its time of day. */
const unstamped = (line: string) => line.replace(/^\d\d:\d\d:\d\d /, '');

test('-v: every line stamped, each step with its start, end and duration, and the output tail in the view and the report', async (t) => {
  const reportFile = join(tmp(), 'report.json');
  const r = await play(observe('linux1', '-v', '--report', reportFile), env);
  t.is(r.code, 0, r.stdout + r.stderr);
  for (const line of lines(r.stdout)) t.regex(line, /^\d\d:\d\d:\d\d /);
  t.is(unstamped(lines(r.stdout)[0]!), `inventory: ${lab.inventoryPath} (from -i)`, 'the header line first, stamped');
  t.regex(r.stdout, /^\d\d:\d\d:\d\d linux1 › say: start$/m);
  t.regex(r.stdout, /^\d\d:\d\d:\d\d linux1 › say: changed \(run command\) in \d+\.\d\d s$/m);
  t.regex(r.stdout, /^\d\d:\d\d:\d\d linux1 › say: \(earlier output cut: the last 20 lines, 4 KiB, of each stream\)$/m);
  t.regex(r.stdout, /^\d\d:\d\d:\d\d linux1 › say: stdout\| line 24$/m);
  t.regex(r.stdout, /^\d\d:\d\d:\d\d linux1 › say: stderr\| a warning$/m);
  t.notRegex(r.stdout, /stdout\| hello from linux1/, 'the first of 25 lines is cut from the 20-line tail');
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const say = report.hosts.linux1.steps.find((s: any) => s.task === 'say');
  const expectedTail = Array.from({ length: 20 }, (_, i) => `line ${i + 5}\n`).join('');
  t.deepEqual(say.output, { stdout: expectedTail, stderr: 'a warning\n', truncated: true });
  t.is(
    report.hosts.linux1.steps.find((s: any) => s.task === 'dir').output,
    undefined,
    'commands that wrote nothing: no output',
  );
});

test('--events -: JSON Lines on stdout, each valid against the schema, in order; the view on stderr shows the failed output', async (t) => {
  const r = await play(observe('linux1:linux2', '--events', '-', '-e', 'fail_on=linux2'), env);
  t.is(r.code, 3, r.stderr);
  const schema = JSON.parse(readFileSync(resolve(projectRoot, 'docs/schema/events.schema.json'), 'utf8'));
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
  const validate = ajv.compile(closed(schema) as object);
  const events = lines(r.stdout).map((l) => JSON.parse(l));
  for (const e of events) t.true(validate(e), `${JSON.stringify(e)}: ${JSON.stringify(validate.errors)}`);
  t.is(events[0].type, 'run-start');
  t.deepEqual([events[0].playbook, events[0].mode, events[0].hosts], ['observe', 'apply', ['linux1', 'linux2']]);
  t.is(events[0].inventory, lab.inventoryPath);
  t.is(events.at(-1).type, 'run-done');
  t.deepEqual(events.at(-1).summary, { ok: 0, changed: 1, failed: 1, skipped: 0, unreachable: 0, interrupted: 0 });
  for (const host of ['linux1', 'linux2']) {
    const mine = events.filter((e) => e.host === host).map((e) => (e.task ? `${e.type} ${e.task}` : e.type));
    t.deepEqual(mine, [
      'host-start',
      'step-start dir',
      'step-done dir',
      // say needs only dir, a new directory: it rides in dir's round trip (chain.ts), after it; token
      // cannot (its content, a secret, travels on stdin), and takes its own turn once dir is done
      'step-start say',
      'step-done say',
      'step-start token',
      'step-done token',
      'step-start show',
      'step-done show',
      'host-done',
    ]);
  }
  const failed = events.find((e) => e.type === 'step-done' && e.host === 'linux2' && e.task === 'show');
  t.is(failed.status, 'failed');
  t.deepEqual(failed.output, { stdout: 'disk check\n', stderr: 'no space left on device\n', truncated: false });
  const shown = events.find((e) => e.type === 'step-done' && e.host === 'linux1' && e.task === 'show');
  t.deepEqual(shown.output, { stdout: '********', stderr: '', truncated: false }, 'the secret read back is masked');
  t.false(r.stdout.includes(SECRET));
  // The view went to stderr, stamped, with the failed step's output at the end.
  t.regex(
    r.stderr,
    /^\d\d:\d\d:\d\d output of failed steps:\n\d\d:\d\d:\d\d {3}\[linux2\] show: stdout\| disk check\n\d\d:\d\d:\d\d {3}\[linux2\] show: stderr\| no space left on device$/m,
  );
});

test('-vv shows what is sent, -vvv the connection, --log keeps -vv with ISO timestamps (0600); a secret is never shown', async (t) => {
  const dir = tmp();
  const log = join(dir, 'run.log');
  const vv = await play(observe('linux3', '-vv', '--events', join(dir, 'events.jsonl')), env);
  t.is(vv.code, 0, vv.stderr);
  t.regex(vv.stdout, /^\d\d:\d\d:\d\d linux3 \[send\] probe: /m);
  t.regex(vv.stdout, /^\d\d:\d\d:\d\d linux3 \[send\] sh: /m);
  t.notRegex(vv.stdout, /\[ssh\]/);
  const events = readFileSync(join(dir, 'events.jsonl'), 'utf8');
  t.regex(events, /"type":"trace","level":2,"host":"linux3"/);

  const quiet = await play(observe('linux3', '--log', log, '-vvv'), env);
  t.is(quiet.code, 0, quiet.stderr);
  t.regex(quiet.stdout, /^\d\d:\d\d:\d\d linux3 \[ssh\] host key ssh-ed25519 SHA256:\S+: accepted$/m);
  t.regex(quiet.stdout, /^\d\d:\d\d:\d\d linux3 \[ssh\] trying key file \S+$/m);
  t.regex(quiet.stdout, /^\d\d:\d\d:\d\d linux3 \[ssh\] authenticated as root in \d+ ms$/m);
  t.is(statSync(log).mode & 0o777, 0o600);
  const logText = readFileSync(log, 'utf8');
  for (const line of lines(logText)) t.regex(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /);
  t.regex(logText, /Z run observe \(apply\) on 1 host, inventory /);
  t.regex(logText, /Z linux3 \[send\] probe: /);
  t.regex(logText, /Z linux3 › show: stdout\| \*{8}$/m);
  t.regex(logText, /Z run observe done in \d+\.\d\d s: 0 ok, 1 changed/);
  for (const text of [vv.stdout, vv.stderr, events, quiet.stdout, quiet.stderr, logText])
    t.false(text.includes(SECRET));
});

test('--log where it cannot be written: one message naming the flag, exit 64, before any host is touched', async (t) => {
  const r = await play(observe('linux1', '--log', '/nonexistent-dir/run.log'), env);
  t.is(r.code, 64, r.stdout + r.stderr);
  t.is(
    r.stderr,
    'play: --log /nonexistent-dir/run.log: cannot write it (its directory does not exist): give a writable path\n',
  );
  t.deepEqual(lines(r.stdout).map(unstamped), [`inventory: ${lab.inventoryPath} (from -i)`], 'nothing ran');
  t.regex(r.stdout, /^\d\d:\d\d:\d\d inventory: /, 'without a terminal the header line is stamped too');
});

test('without a terminal a heartbeat names each running host, its step and how long it has waited', async (t) => {
  const args = [pb('slow'), '-i', lab.inventoryPath, '-l', 'linux4', '-e', `dir=${scratch('beat')}`, '-e', 'seconds=3'];
  const r = await play(args, { PLAY_HEARTBEAT_SEC: '0.5' });
  t.is(r.code, 0, r.stderr);
  t.regex(r.stdout, /^\d\d:\d\d:\d\d still running: 0 of 1 hosts done, 1 running: linux4: a \(waiting \ds\)$/m);
});
