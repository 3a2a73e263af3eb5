// ansible-playbook's connection flags through the real CLI against a lab host (linux4, unique paths):
// an inventory with no ansible_user and no key file connects with `-u root --private-key LABKEY`;
// `-b --become-user` runs as that user; -K asks on a terminal (a pty from util-linux's `script`) and
// sudo takes what was typed, which never shows; -k's password reaches the authentication; without a
// terminal -K is a usage error naming what to do instead; a vault-encrypted ansible_become_password
// works; a bad --private-key or --become-method is refused before any host is touched. HOME is an
// empty directory, so no ~/.ssh key, ssh_config or ansible.cfg of this machine takes part.
import test from 'ava';
import { spawn } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { NOPASSWD_USER, SUDO_USER } from '../../lab/hosts/sudo-users.js';
import { ensureLab, type Lab, onLabHost } from '../helpers/lab.js';
import { type CliResult, play, projectRoot, scratch } from '../helpers/play.js';
import { encryptFile } from '../inventory/ansible-oracle.js';

const HOST = 'linux4';
const PLAYBOOK = 'test/e2e/playbooks/files.ts';
let lab: Lab;
let dir: string;
let password: string;
const paths = { root: scratch('cf-root'), becomeUser: `/tmp/cf-become-${process.pid}`, ask: scratch('cf-ask') };
const vaultPath = scratch('cf-vault');

test.before(async () => {
  lab = await ensureLab({ linux: 4 });
  password = parseDotenv(readFileSync(join(lab.state.dir, 'lab.env'), 'utf8')).PLAY_LAB_SUDO_PASSWORD ?? '';
  if (!password) throw new Error('the lab has no PLAY_LAB_SUDO_PASSWORD in lab.env: is sudo installed?');
  dir = mkdtempSync(join(tmpdir(), 'play-conn-flags-'));
  mkdirSync(join(dir, 'home'));
  // An inventory as an Ansible user keeps one that relies on -u and --private-key: no user, no key.
  const inventory = (name: string, varsDir?: string) =>
    writeFileSync(
      join(dir, name),
      [
        'all:',
        '  vars:',
        `    ansible_ssh_common_args: -o UserKnownHostsFile=${lab.knownHostsPath}`,
        '  children:',
        '    linux:',
        '      hosts:',
        `        ${HOST}:`,
        `          ansible_host: ${lab.host(HOST).address}`,
        ...(varsDir ? [`          dir: ${varsDir}`] : []),
        '',
      ].join('\n'),
    );
  inventory('hosts.yml');
  // The become password in a vault-encrypted group_vars file beside its own inventory.
  mkdirSync(join(dir, 'vaulted/group_vars'), { recursive: true });
  inventory('vaulted/hosts.yml', vaultPath);
  writeFileSync(join(dir, 'vaulted/group_vars/linux.yml'), `ansible_become_password: ${password}\n`);
  writeFileSync(join(dir, 'vault-pass'), 'lab vault password\n');
  encryptFile(join(dir, 'vaulted/group_vars/linux.yml'), join(dir, 'vault-pass'));
  copyFileSync(lab.keyPath, join(dir, 'open-key'));
  chmodSync(join(dir, 'open-key'), 0o644);
});

test.after.always(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (lab) await onLabHost(lab, HOST, `rm -rf ${paths.root} ${paths.becomeUser} ${paths.ask} ${vaultPath}`);
});

/** The environment of every run: an empty HOME, no ssh-agent. */
const env = () => ({ HOME: join(dir, 'home'), SSH_AUTH_SOCK: '' });
const files = (args: string[], inventory = 'hosts.yml') =>
  play([PLAYBOOK, '-i', join(dir, inventory), '--no-live', ...args], env());
const owners = (path: string) => onLabHost(lab, HOST, `stat -c '%U' ${path} ${path}/note`);
const summary = (r: CliResult) => JSON.parse(r.stdout).summary;

test.serial('without -u and --private-key nothing authenticates; with them, root connects and applies', async (t) => {
  const before = await files(['-e', `dir=${paths.root}`, '--check']);
  t.is(before.code, 4, before.stdout + before.stderr);
  t.regex(before.stdout, /host linux4: no way to authenticate as root/);
  const r = await files(['-u', 'root', '--private-key', lab.keyPath, '-e', `dir=${paths.root}`, '--json']);
  t.is(r.code, 0, r.stderr);
  t.like(summary(r), { changed: 1, failed: 0, unreachable: 0 });
  t.is(await owners(paths.root), 'root\nroot\n');
  const again = await files(['--user', 'root', '--key-file', lab.keyPath, '-e', `dir=${paths.root}`, '--json']);
  t.like(summary(again), { changed: 0, ok: 1 });
});

test.serial('-b --become-user: the files are written as that user (root sudoes to it)', async (t) => {
  const r = await files([
    ...['-u', 'root', '--private-key', lab.keyPath, '-b', '--become-user', NOPASSWD_USER],
    ...['-e', `dir=${paths.becomeUser}`, '--json'],
  ]);
  t.is(r.code, 0, r.stderr);
  t.is(await owners(paths.becomeUser), `${NOPASSWD_USER}\n${NOPASSWD_USER}\n`);
});

test.serial('-K asks once on the terminal, without echo; sudo takes the password; it shows nowhere', async (t) => {
  const report = join(dir, 'ask-report.json');
  const args = ['-u', SUDO_USER, '--private-key', lab.keyPath, '-b', '-K', '-e', `dir=${paths.ask}`];
  const r = await onTerminal([...args, '--report', report], [['BECOME password: ', `${password}\r`]]);
  t.is(r.code, 0, r.screen);
  t.is(r.screen.split('BECOME password: ').length, 2, 'asked once');
  t.false(r.screen.includes(password), 'not echoed, not printed');
  t.false(readFileSync(report, 'utf8').includes(password), 'not in the report');
  t.is(await owners(paths.ask), 'root\nroot\n');
});

test.serial(
  "-k asks for the SSH password first; it is what play offers the server (the lab's sshd takes keys only)",
  async (t) => {
    const r = await onTerminal(
      ['-u', SUDO_USER, '-k', '-K', '-b', '-e', `dir=${paths.ask}`, '--check'],
      [
        ['SSH password: ', `${password}\r`],
        ['BECOME password[defaults to SSH password]: ', '\r'],
      ],
    );
    t.is(r.code, 4, r.screen);
    t.regex(r.screen, /authentication failed for user playlab at 198\.18\.0\.104:22; tried password from --ask-pass/);
    t.false(r.screen.includes(password));
  },
);

test.serial('a vault-encrypted ansible_become_password: sudo gets it, it shows nowhere', async (t) => {
  const r = await files(
    ['-u', SUDO_USER, '--private-key', lab.keyPath, '-b', '--vault-password-file', join(dir, 'vault-pass'), '--json'],
    'vaulted/hosts.yml',
  );
  t.is(r.code, 0, r.stderr);
  t.like(summary(r), { changed: 1, failed: 0 });
  t.false(r.stdout.includes(password) || r.stderr.includes(password));
  t.is(await owners(vaultPath), 'root\nroot\n');
});

test('refused before any host is touched: no terminal for -K, a bad --private-key, another --become-method', async (t) => {
  const noTerminal = await detached([PLAYBOOK, '-i', join(dir, 'hosts.yml'), '-b', '-K']);
  const rows = [
    noTerminal,
    await files(['--private-key', join(dir, 'missing-key')]),
    await files(['--private-key', join(dir, 'open-key')]),
    await files(['--become-method', 'su']),
  ].map((r) => [r.code, r.stderr.trim()]);
  t.deepEqual(rows, [
    [
      64,
      `play: --ask-become-pass: there is no terminal to ask on: set ansible_become_password in the inventory as a !vault value (ansible-vault encrypt_string) or as "{{ lookup('env', 'NAME') }}"`,
    ],
    [65, `play: --private-key ${join(dir, 'missing-key')}: not found`],
    [
      65,
      `play: --private-key ${join(dir, 'open-key')}: is an UNPROTECTED PRIVATE KEY FILE: mode 0644 lets group or others at it, and ssh refuses such a key too: chmod 600 ${join(dir, 'open-key')}`,
    ],
    [64, 'play: --become-method su: play becomes with sudo only (leave the flag out)'],
  ]);
});

/** `play` with no controlling terminal (setsid), as under cron or CI. */
function detached(args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn('setsid', ['-w', process.execPath, join(projectRoot, 'bin/play.mjs'), ...args], {
      cwd: projectRoot,
      env: { ...process.env, PLAY_INVENTORY: '', ...env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** `play files ARGS` on a terminal (util-linux's `script` makes a pty), typing each answer once its prompt shows. */
function onTerminal(args: string[], answers: [prompt: string, keys: string][]) {
  const argv = [
    process.execPath,
    join(projectRoot, 'bin/play.mjs'),
    PLAYBOOK,
    '-i',
    join(dir, 'hosts.yml'),
    '--no-live',
  ];
  const command = [...argv, ...args].map((a) => `'${a}'`).join(' ');
  return new Promise<{ code: number | null; screen: string }>((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      cwd: projectRoot,
      env: { ...process.env, PLAY_INVENTORY: '', ...env() },
    });
    let screen = '';
    let next = 0;
    let from = 0;
    child.stdout.on('data', (d) => {
      screen += d;
      // Typed only once asked: before, the terminal still echoes (as it would for a person).
      const answer = answers[next];
      const at = answer ? screen.indexOf(answer[0], from) : -1;
      if (answer && at >= 0) {
        next++;
        from = at + answer[0].length;
        child.stdin.write(answer[1]);
      }
    });
    // A prompt that never comes must not hang the suite.
    const stop = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(stop);
      resolve({ code, screen });
    });
  });
}
