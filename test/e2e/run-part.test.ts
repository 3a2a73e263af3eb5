// Running a part of a playbook end to end, as a user types it: --list-hosts/--list-tasks/--list-tags
// (no host touched), --tags and --skip-tags in apply mode on lab Linux hosts with a task that reads an
// output of a task left out, --start-at-task, --step at a real terminal (util-linux `script` gives the
// command a pty), and the refusals with their exit codes.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureLab, sshRun, type Lab } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ linux: 4 });
});

const PB = resolve(projectRoot, 'test/e2e/playbooks/tagged-parts.ts');
const EXAMPLE = resolve(projectRoot, 'inventory/example.yaml');

/** Per task: `skipped (reason): text`, `unknown: text`, or the status of a task that ran. */
function outcome(report: any, host: string): Record<string, string> {
  return Object.fromEntries(
    report.hosts[host].steps.map((s: any) => [
      s.task,
      s.status === 'skipped'
        ? `skipped (${s.skip}): ${s.error}`
        : s.status === 'unknown'
          ? `unknown: ${s.error}`
          : s.status,
    ]),
  );
}

async function fileOn(host: string, path: string): Promise<string> {
  return (await sshRun(lab, lab.host(host), `cat ${path} 2>/dev/null || echo ABSENT`)).stdout;
}

test('--list-tasks, --list-tags and --list-hosts print what a run would do, honouring --tags and --limit', async (t) => {
  const base = ['onboard-windows', '-i', EXAMPLE];
  const tasks = await play([...base, '--list-tasks', '--tags', 'docker', '--skip-tags', 'hotfix']);
  const tags = await play([...base, '--list-tags', '--tags', 'tor']);
  const hosts = await play([...base, '--list-hosts', '-l', 'node009', '--tags', 'docker']);
  const torHosts = await play([...base, '--list-hosts', '-l', 'node009', '--tags', 'keepalived']);
  t.deepEqual(
    [tasks, tags, hosts, torHosts].map((r) => [r.code, r.stdout, r.stderr]),
    [
      [
        0,
        [
          'tasks of onboard-windows, in run order (6 of 33):',
          '   9. containers     on windows  [docker]',
          '  10. docker         on windows  [docker]',
          '  13. daemonJson     on windows  [docker]',
          '  14. dockerRestart  on windows  [docker]',
          '  15. dockerRunning  on windows  [docker]',
          '  16. pauseImage     on windows  [docker, kubernetes]',
          '',
        ].join('\n'),
        '',
      ],
      [
        0,
        [
          'tags of onboard-windows (4):',
          '  keepalived  clusterNodes, torPackage, torConfig, torRestart, torService',
          '  kubernetes  clusterNodes',
          '  sysctl      torForwarding',
          '  tor         clusterNodes, torForwarding, torPackage, torConfig, torRestart, torService',
          '',
        ].join('\n'),
        '',
      ],
      [0, 'hosts of onboard-windows (1):\n  node009\n', ''],
      [0, 'hosts of onboard-windows (4):\n  tor1\n  tor2\n  tor3\n  master1\n', ''],
    ],
  );
});

test('bad parts are usage errors (64) naming the flag and what to do, before any host is touched', async (t) => {
  const runs = await Promise.all([
    play(['onboard-windows', '-i', EXAMPLE, '--tags', 'dokcer', '--list-tasks']),
    play(['onboard-windows', '-i', EXAMPLE, '--start-at-task', 'kubelte', '--check']),
    play(['tor-gateway', '-i', EXAMPLE, '--step', '--check']),
    play(['hotfix-windows', '-i', EXAMPLE, '--tags', 'hotfix', '--check']),
    play(['drift', 'tor-gateway', '-i', EXAMPLE, '--tags', 'keepalived']),
  ]);
  // stdout may hold the run's header (the inventory line); the refusal is on stderr, nothing after it.
  t.deepEqual(
    runs.map((r) => [r.code, r.stderr]),
    [
      [
        64,
        'play: --tags dokcer: no task of onboard-windows has this tag; did you mean docker? its tags: cni, dns, docker, hotfix, keepalived, kube-proxy, kubelet, kubernetes, network, os, reboot, ssh, sysctl, time, tor (and all, always, never, tagged, untagged; `play onboard-windows --list-tags`)\n',
      ],
      [
        64,
        'play: --start-at-task kubelte: onboard-windows has no such task; did you mean kubelet? its tasks in run order: `play onboard-windows --list-tasks`\n',
      ],
      [
        64,
        'play: --step asks before each task and needs a terminal: run it interactively, without --step in scripts\n',
      ],
      [
        64,
        'play: --tags: hotfix-windows is a rolling run, which takes each node through all of its tasks (cordon, drain, apply, Ready): run it without --tags\n',
      ],
      [64, "play: unknown option or argument: --tags (see 'play drift --help')\n"],
    ],
  );
});

test('--tags in apply mode: a task that reads an output of a task left out is not applied, one that only needs it runs', async (t) => {
  const dir = scratch('part');
  const args = [PB, '-i', lab.inventoryPath, '-l', 'linux1', '-e', `dir=${dir}`, '--json'];
  const apply = await play([...args, '--tags', 'files']);
  const notApplied = 'not applied: its input is unknown (not run: token was left out by --tags)';
  t.is(apply.code, 0, apply.stderr);
  t.deepEqual(outcome(JSON.parse(apply.stdout), 'linux1'), {
    token: 'skipped (not-selected): left out by --tags',
    dir: 'changed',
    stamp: `skipped (input-not-run): ${notApplied}`,
    note: 'changed',
  });
  t.deepEqual(
    [await fileOn('linux1', `${dir}/stamp`), await fileOn('linux1', `${dir}/note`)],
    ['ABSENT\n', 'after the token\n'],
  );

  const check = await play([...args, '--check', '--skip-tags', 'token']);
  t.is(check.code, 2, check.stderr);
  t.deepEqual(outcome(JSON.parse(check.stdout), 'linux1'), {
    token: 'skipped (not-selected): left out by --skip-tags',
    dir: 'ok',
    stamp: 'unknown: unknown (not run: token was left out by --skip-tags)',
    note: 'ok',
  });

  const started = await play([...args, '--start-at-task', 'note']);
  t.is(started.code, 0, started.stderr);
  t.deepEqual(outcome(JSON.parse(started.stdout), 'linux1'), {
    token: 'skipped (not-selected): left out by --start-at-task',
    dir: 'skipped (not-selected): left out by --start-at-task',
    stamp: 'skipped (not-selected): left out by --start-at-task',
    note: 'ok',
  });

  const all = await play(args);
  t.is(all.code, 0, all.stderr);
  t.regex(await fileOn('linux1', `${dir}/stamp`), /^token=[0-9a-f-]{36}\n$/);
});

test('--step at a terminal asks before each task, once for all its hosts: no leaves it out, yes runs it', async (t) => {
  const dir = scratch('step');
  const local = mkdtempSync(join(tmpdir(), 'play-step-'));
  t.teardown(() => rmSync(local, { recursive: true, force: true }));
  const reportFile = join(local, 'report.json');
  const cmd = [process.execPath, resolve(projectRoot, 'bin/play.mjs'), PB, '-i', lab.inventoryPath];
  const line = [...cmd, '-l', 'linux1:linux2', '-e', `dir=${dir}`, '--step', '--report', reportFile];
  const quoted = line.map((w) => `'${w}'`).join(' ');
  // script(1) runs the command at a pty; the answers typed: token no, dir yes, note yes (stamp reads the
  // token, so it is never asked about).
  const typed = execFileSync('script', ['-qec', quoted, '/dev/null'], {
    input: 'n\ny\ny\n',
    env: { ...process.env, PLAY_INVENTORY: '' },
  }).toString();
  const asked = [...typed.matchAll(/Perform task: (\S+) \(N\)o\/\(y\)es\/\(c\)ontinue: /g)].map((m) => m[1]);
  t.deepEqual(asked, ['token', 'dir', 'note']);
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const expected = {
    token: 'skipped (not-selected): left out at --step',
    dir: 'changed',
    stamp: 'skipped (input-not-run): not applied: its input is unknown (not run: token was left out at --step)',
    note: 'changed',
  };
  t.deepEqual([outcome(report, 'linux1'), outcome(report, 'linux2')], [expected, expected]);
});
