// The CLI end to end against lab hosts over real SSH: exit codes, check mode, reports, failures,
// unreachable hosts, host keys, and input errors refused before any host is touched.
import test from 'ava';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { ensureLab, sshRun, type Lab } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ linux: 4 });
});

const pb = (name: string) => resolve(projectRoot, 'test/e2e/playbooks', `${name}.ts`);
const tmp = () => mkdtempSync(join(tmpdir(), 'play-cli-'));

async function onHost(host: string, cmd: string): Promise<string> {
  return (await sshRun(lab, lab.host(host), cmd)).stdout;
}

/** A copy of the lab inventory, edited by `edit`, with its own known_hosts copy. */
function inventoryCopy(edit: (inv: any, knownHosts: string) => void = () => {}): { path: string; knownHosts: string } {
  const dir = tmp();
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, readFileSync(lab.knownHostsPath));
  const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  inv.all.vars.ansible_ssh_common_args = `-o UserKnownHostsFile=${knownHosts}`;
  edit(inv, knownHosts);
  const path = join(dir, 'inventory.yaml');
  writeFileSync(path, YAML.stringify(inv));
  return { path, knownHosts };
}

test('check reports and changes nothing (exit 2); apply (exit 0); a second run changes nothing', async (t) => {
  const dir = scratch();
  const args = [pb('files'), '-i', lab.inventoryPath, '-l', 'linux1:linux2', '-e', `dir=${dir}`];
  const check = await play([...args, '--check', '--json']);
  t.is(check.code, 2, check.stderr);
  const planned = JSON.parse(check.stdout);
  t.is(planned.mode, 'check');
  t.deepEqual(Object.keys(planned.hosts), ['linux1', 'linux2']);
  t.is(planned.hosts.linux1.status, 'changed');
  t.deepEqual(
    planned.hosts.linux1.steps.map((s: any) => [s.task, s.kind, s.action, s.status]),
    [
      ['dir', 'linux.directory', 'create', 'changed'],
      ['note', 'linux.file', 'create', 'changed'],
    ],
  );
  t.is((await onHost('linux1', `test -e ${dir} && echo present || echo absent`)).trim(), 'absent');

  const reportFile = join(tmp(), 'report.json');
  const apply = await play([...args, '--report', reportFile]);
  t.is(apply.code, 0, apply.stderr);
  t.regex(apply.stdout, /files: 2 hosts: 0 ok, 2 changed, 0 failed, 0 skipped, 0 unreachable/);
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  for (const key of ['playbook', 'mode', 'startedAt', 'durationMs', 'hosts', 'summary']) t.true(key in report, key);
  const step = report.hosts.linux2.steps[1];
  for (const key of ['task', 'kind', 'action', 'fields', 'before', 'after', 'status', 'durationMs', 'error'])
    t.true(key in step, key);
  t.deepEqual(report.summary, { ok: 0, changed: 2, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 });
  t.is(await onHost('linux2', `cat ${dir}/note`), 'hello from linux2\n');

  const again = await play([...args, '--json']);
  t.is(again.code, 0);
  t.deepEqual(JSON.parse(again.stdout).summary, {
    ok: 2,
    changed: 0,
    failed: 0,
    skipped: 0,
    unreachable: 0,
    interrupted: 0,
  });
});

test('a failed step skips its dependents with the reason, other hosts finish (exit 3)', async (t) => {
  const dir = scratch();
  const r = await play([
    pb('fails'),
    '-i',
    lab.inventoryPath,
    '-l',
    'linux1:linux2:linux3',
    '-e',
    `dir=${dir}`,
    '-e',
    'fail_on=linux2',
    '--json',
  ]);
  t.is(r.code, 3, r.stderr);
  const report = JSON.parse(r.stdout);
  t.is(report.hosts.linux2.status, 'failed');
  const [, b, c] = report.hosts.linux2.steps;
  t.is(b.status, 'failed');
  t.regex(b.error, /exit 5.*no space left on device/s);
  t.is(c.status, 'skipped');
  t.is(c.error, 'needs b on linux2, which failed');
  for (const h of ['linux1', 'linux3']) {
    t.is(report.hosts[h].status, 'changed');
    t.is(await onHost(h, `cat ${dir}/c`), 'c\n');
  }
  t.is((await onHost('linux2', `test -e ${dir}/c && echo yes || echo no`)).trim(), 'no');
  t.regex(r.stderr, /linux2\s+failed\s+.*b: .*exit 5/);
});

test('an unreachable host is reported as such, the others finish (exit 4)', async (t) => {
  const { path } = inventoryCopy((inv) => {
    inv.all.children.linux.hosts.ghost = { ansible_host: lab.host('linux1').address, ansible_port: 2 };
  });
  const dir = scratch();
  const r = await play([pb('files'), '-i', path, '-l', 'linux1:ghost', '-e', `dir=${dir}`, '--json']);
  t.is(r.code, 4, r.stderr);
  const report = JSON.parse(r.stdout);
  t.is(report.hosts.ghost.status, 'unreachable');
  t.regex(report.hosts.ghost.steps[0].error, /ghost.*198\.18\.0\.\d+:2.*refused/i);
  t.is(report.hosts.ghost.steps[1].status, 'unreachable');
  t.is(report.hosts.linux1.status, 'changed');
  t.deepEqual(report.summary, { ok: 0, changed: 1, failed: 0, skipped: 0, unreachable: 1, interrupted: 0 });
});

test('a changed host key is refused, even with --accept-new, and the host is untouched', async (t) => {
  const keyDir = tmp();
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(keyDir, 'k')]);
  const otherKey = readFileSync(join(keyDir, 'k.pub'), 'utf8').split(' ').slice(0, 2).join(' ');
  const addr = lab.host('linux3').address;
  const { path, knownHosts } = inventoryCopy((_inv, kh) => {
    const lines = readFileSync(kh, 'utf8')
      .split('\n')
      .map((l) => (l.startsWith(`${addr} `) ? `${addr} ${otherKey}` : l));
    writeFileSync(kh, lines.join('\n'));
  });
  const dir = scratch();
  for (const extra of [[], ['--accept-new']]) {
    const r = await play([pb('files'), '-i', path, '-l', 'linux3', '-e', `dir=${dir}`, ...extra]);
    t.is(r.code, 4, r.stdout + r.stderr);
    t.regex(r.stdout, /HOST KEY CHANGED for linux3/);
    t.true(r.stdout.includes(knownHosts), 'names the known_hosts file');
  }
  t.true(readFileSync(knownHosts, 'utf8').includes(otherKey), 'the recorded key is left alone');
  t.is((await onHost('linux3', `test -e ${dir} && echo yes || echo no`)).trim(), 'no');
});

test('an unknown host key is refused with its fingerprint; --accept-new records it', async (t) => {
  const { path, knownHosts } = inventoryCopy((_inv, kh) => writeFileSync(kh, ''));
  const dir = scratch();
  const args = [pb('files'), '-i', path, '-l', 'linux4', '-e', `dir=${dir}`];
  const refused = await play(args);
  t.is(refused.code, 4);
  const hostPub = lab.state.hosts.find((h) => h.name === 'linux4')!.hostKey;
  const pubFile = join(tmp(), 'host.pub');
  writeFileSync(pubFile, hostPub + '\n');
  const fingerprint = execFileSync('ssh-keygen', ['-lf', pubFile], { encoding: 'utf8' }).split(' ')[1]!;
  t.true(refused.stdout.includes(fingerprint), `${fingerprint} in ${refused.stdout}`);
  t.regex(refused.stdout, /--accept-new/);
  const accepted = await play([...args, '--accept-new']);
  t.is(accepted.code, 0, accepted.stdout + accepted.stderr);
  t.true(readFileSync(knownHosts, 'utf8').includes(hostPub.split(' ')[1]!));
  t.is((await play(args)).code, 0, 'the recorded key now matches');
});

test('usage and input errors name what is wrong and touch no host', async (t) => {
  const noMatch = await play(['hosts', 'linux1:nosuch*', '-i', lab.inventoryPath]);
  t.is(noMatch.code, 64);
  t.regex(noMatch.stderr, /nosuch\*/);

  const badInv = join(tmp(), 'bad.yaml');
  writeFileSync(badInv, 'all:\n  hosts:\n    a:\n      ansible_port: eighty\n');
  const inv = await play(['hosts', 'all', '-i', badInv]);
  t.is(inv.code, 65);
  t.true(inv.stderr.includes(badInv), inv.stderr);
  t.regex(inv.stderr, /ansible_port/);

  const { path } = inventoryCopy((i) => {
    i.all.children.linux.hosts.linux1.ansible_password = "{{ lookup('env', 'PLAY_TEST_UNSET_PW') }}";
  });
  const secret = await play([pb('files'), '-i', path, '-l', 'linux1', '-e', `dir=${scratch()}`], {
    PLAY_TEST_UNSET_PW: '',
  });
  t.is(secret.code, 65, secret.stderr);
  t.regex(secret.stderr, /linux1.*ansible_password.*PLAY_TEST_UNSET_PW/);

  const dir = scratch();
  const bad = await play([pb('bad-options'), '-i', lab.inventoryPath, '-l', 'linux1:linux2', '-e', `dir=${dir}`]);
  t.is(bad.code, 65);
  t.regex(bad.stderr, /task 'bad' for host linux2: linux\.directory: option 'path' must be an absolute path/);
  t.is(
    (await onHost('linux1', `test -e ${dir} && echo yes || echo no`)).trim(),
    'no',
    'nothing ran on the good host either',
  );

  const unknownOption = await play([pb('files'), '--frobnicate']);
  t.is(unknownOption.code, 64);
});

test('Ctrl-C starts nothing new, lets the running step finish, writes the report, exits 130', async (t) => {
  const dir = scratch();
  const reportFile = join(tmp(), 'report.json');
  const child = spawn(
    process.execPath,
    [
      resolve(projectRoot, 'bin/play.mjs'),
      pb('slow'),
      '-i',
      lab.inventoryPath,
      '-l',
      'linux1',
      '-e',
      `dir=${dir}`,
      '-e',
      'seconds=3',
      '--report',
      reportFile,
    ],
    { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '',
    stdout = '';
  child.stderr.on('data', (d) => (stderr += d));
  // Interrupt once step `a` (3 s) is under way: the run has printed its first line.
  await new Promise<void>((r) =>
    child.stdout.on('data', (d) => {
      stdout += d;
      if (stdout.includes('slow on 1 host')) r();
    }),
  );
  await new Promise((r) => setTimeout(r, 700));
  child.kill('SIGINT');
  const code = await new Promise<number | null>((r) => child.on('close', r));
  t.is(code, 130, stderr);
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  t.true(report.interrupted);
  t.deepEqual(
    report.hosts.linux1.steps.map((s: any) => [s.task, s.status]),
    [
      ['a', 'changed'],
      ['b', 'skipped'],
    ],
  );
  t.is(report.hosts.linux1.steps[1].error, 'interrupted');
  t.is((await onHost('linux1', `test -d ${dir}/a && echo yes; test -e ${dir}/b && echo b; true`)).trim(), 'yes');
  t.true(existsSync(reportFile));
});

test('play graph and play list', async (t) => {
  const graph = await play(['graph', 'bench', '-i', lab.inventoryPath, '-l', 'linux1']);
  t.is(graph.code, 0, graph.stderr);
  t.regex(graph.stdout, /2\. copy\s+\(on linux\)\s+needs dir/);
  t.regex(graph.stdout, /wave 2:\n(.*\n)*\s+copy @ linux1\s+after dir@linux1/);
  const list = await play(['list']);
  t.regex(list.stdout, /^bench\s+Five idempotent Linux steps/m);
});

test("a TypeScript playbook of the cwd that imports the checkout's sources runs with the compiled CLI's own modules", async (t) => {
  const dir = tmp();
  mkdirSync(join(dir, 'playbooks'));
  // Outside any package.json: still an ES module. Its imports of runner/ and tasks/ sources are the
  // CLI's compiled modules, so a bad option is an InputError the CLI recognizes (65), not a crash (70).
  writeFileSync(
    join(dir, 'playbooks', 'mine.ts'),
    [
      `import { definePlaybook } from '${projectRoot}/runner/playbook/define.js';`,
      `import { directory } from '${projectRoot}/tasks/linux/index.js';`,
      `const where: string = 'relative';`,
      `export default definePlaybook({ name: 'mine', description: 'a user playbook', tasks: {`,
      `  d: { on: 'linux', step: ({ host }) => directory({ path: host.name === 'linux2' ? where : '/srv/x' }) } } });`,
    ].join('\n'),
  );
  const inDir = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
      const child = spawn(process.execPath, [resolve(projectRoot, 'bin/play.mjs'), ...args], {
        cwd: dir,
        env: { ...process.env, PLAY_INVENTORY: '' },
      });
      let stdout = '',
        stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => done({ code, stdout, stderr }));
    });
  const list = await inDir(['list']);
  t.is(list.code, 0, list.stderr);
  t.regex(list.stdout, /^bench\s+Five idempotent/m);
  t.regex(list.stdout, /^mine\s+a user playbook$/m);
  const run = await inDir(['mine', '-i', lab.inventoryPath, '-l', 'linux1:linux2', '--check']);
  t.is(run.code, 65, run.stderr);
  t.regex(run.stderr, /linux2.*linux\.directory: option 'path' must be an absolute path/);
});
