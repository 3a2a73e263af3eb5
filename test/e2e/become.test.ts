// become (ansible_become: sudo) for real: the lab's unprivileged users (lab/hosts/sudo-users.ts) log in
// to a Linux lab host and write root-owned files under /srv (which they cannot write themselves):
// playlab gives sudo the password from the environment, playlabnp needs none. Converges, a second run
// changes nothing, a wrong password fails in one attempt and never shows. linux3 with unique paths.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parse as parseDotenv } from 'dotenv';
import { NOPASSWD_USER, SUDO_USER } from '../../lab/hosts/sudo-users.js';
import { ensureLab, type Lab, onLabHost } from '../helpers/lab.js';
import { play, scratch } from '../helpers/play.js';

const HOST = 'linux3';
let lab: Lab;
let dir: string;
let password: string;
const paths = { a: scratch('become'), b: scratch('become') };

test.before(async () => {
  lab = await ensureLab({ linux: 4 });
  password = parseDotenv(readFileSync(join(lab.state.dir, 'lab.env'), 'utf8')).PLAY_LAB_SUDO_PASSWORD ?? '';
  if (!password) throw new Error('the lab has no PLAY_LAB_SUDO_PASSWORD in lab.env: is sudo installed?');
  dir = mkdtempSync(join(tmpdir(), 'play-become-'));
  const address = lab.host(HOST).address;
  writeFileSync(
    join(dir, 'hosts.yml'),
    [
      'all:',
      '  vars:',
      `    ansible_ssh_private_key_file: ${lab.keyPath}`,
      `    ansible_ssh_common_args: -o UserKnownHostsFile=${lab.knownHostsPath}`,
      '    ansible_become: yes',
      '  children:',
      '    linux:',
      '      hosts:',
      '        with-password:',
      `          ansible_host: ${address}`,
      `          ansible_user: ${SUDO_USER}`,
      `          ansible_become_password: "{{ lookup('env', 'BECOME_TEST_PASSWORD') }}"`,
      `          dir: ${paths.a}`,
      '        nopasswd:',
      `          ansible_host: ${address}`,
      `          ansible_user: ${NOPASSWD_USER}`,
      `          dir: ${paths.b}`,
      '',
    ].join('\n'),
  );
});

test.after.always(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (lab) await onLabHost(lab, HOST, `rm -rf ${paths.a} ${paths.b}`);
});

const run = (env: Record<string, string>) =>
  play(['test/e2e/playbooks/files.ts', '-i', join(dir, 'hosts.yml'), '--json'], env);

test.serial('a wrong password fails the host in one attempt, names where it came from, and never shows', async (t) => {
  const r = await run({ BECOME_TEST_PASSWORD: 'not-the-password' });
  t.is(r.code, 3, r.stderr);
  const report = JSON.parse(r.stdout);
  t.deepEqual(
    report.hosts['with-password'].steps.map((s: { task: string; status: string }) => [s.task, s.status]),
    [
      ['dir', 'failed'],
      ['note', 'skipped'],
    ],
  );
  t.is(
    report.hosts['with-password'].steps[0].error,
    `host with-password: ${SUDO_USER} cannot become root with sudo: sudo refused the become password (ansible_become_password, from env:BECOME_TEST_PASSWORD): sudo: 1 incorrect password attempt`,
  );
  t.false(`${r.stdout}${r.stderr}`.includes('not-the-password'));
  t.is(report.hosts.nopasswd.status, 'changed', 'the NOPASSWD host is not held back by the other one');
  t.is(await onLabHost(lab, HOST, `test -e ${paths.a} && echo there || echo absent`), 'absent\n');
});

test.serial(
  'converges as root through sudo (password on stdin, or NOPASSWD); a second run changes nothing',
  async (t) => {
    const first = await run({ BECOME_TEST_PASSWORD: password });
    t.is(first.code, 0, first.stderr);
    const summary = (out: string) => JSON.parse(out).summary;
    t.like(summary(first.stdout), { changed: 1, ok: 1, failed: 0 }); // nopasswd converged in the test above
    t.false(`${first.stdout}${first.stderr}`.includes(password));
    // Root's files, where the login users cannot write.
    t.is(
      await onLabHost(lab, HOST, `stat -c '%U %a' ${paths.a} ${paths.a}/note ${paths.b} ${paths.b}/note`),
      'root 755\nroot 644\nroot 755\nroot 644\n',
    );
    const second = await run({ BECOME_TEST_PASSWORD: password });
    t.is(second.code, 0, second.stderr);
    t.like(summary(second.stdout), { changed: 0, ok: 2, failed: 0 });
  },
);

test.serial('the login users cannot write there themselves: the files above were written through sudo', async (t) => {
  const denied = await onLabHost(
    lab,
    HOST,
    `su -s /bin/sh ${SUDO_USER} -c 'touch ${paths.a}/by-user' 2>&1; test -e ${paths.a}/by-user && echo wrote || echo denied`,
  );
  t.regex(denied, /Permission denied[\s\S]*denied\n$/);
});
