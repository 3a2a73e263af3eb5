// ansible-vault, -e and -i forms through the real CLI (dist/, built by `pretest`): the errors a user can
// cause, one line each with its exit code (cliTable rows, vault files made by Debian's ansible-vault at
// test time); `play inventory --list` with a vault-encrypted group_vars file (masked; the same variable
// names as ansible-inventory); and --ask-vault-pass on a terminal (a pty from util-linux's `script`):
// asked on the terminal, never echoed. No row touches a host.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type CliRow, cliTable, ONE_HOST_INVENTORY as INVENTORY, OK_PLAYBOOK } from '../helpers/cli-table.js';
import { play, projectRoot } from '../helpers/play.js';
import { ansibleInventory, encryptFile, encryptStrings, vaultYaml } from '../inventory/ansible-oracle.js';

const FILES = { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK, pass: 'pw-prod\n', wrong: 'not-it\n' };
const RUN = ['ok.ts', '-i', 'inv.yaml'];
const GROUP_VARS = 'group_vars/linux.yml';
const NO_PASSWORD =
  'and no vault password was given: pass --vault-password-file FILE, --vault-id \\[LABEL@\\]FILE or --ask-vault-pass';
const WRONG =
  'does not decrypt it \\(none is labelled prod: --vault-id prod@FILE\\): a wrong password, or the file changed';

/** Writes `text` to `name` in `dir`, encrypted by ansible-vault with the row's password file (vault id prod). */
const encrypted = (name: string, text: string) => (dir: string) => {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  encryptFile(path, join(dir, 'pass'), 'prod');
};
const VRRP = encrypted(GROUP_VARS, 'vrrp_auth_pass: vrrp-secret-1\n');

const rows: Record<string, CliRow> = {
  'a vault-encrypted group_vars file, and no password given': {
    argv: RUN,
    files: FILES,
    setup: VRRP,
    code: 65,
    message: new RegExp(`group_vars/linux\\.yml: is encrypted with ansible-vault \\(vault id prod\\), ${NO_PASSWORD}`),
  },
  'a wrong --vault-password-file': {
    argv: [...RUN, '--vault-password-file', 'wrong'],
    files: FILES,
    setup: VRRP,
    code: 65,
    message: new RegExp(
      `group_vars/linux\\.yml: is encrypted with ansible-vault \\(vault id prod\\), and the vault password given \\(--vault-password-file wrong\\) ${WRONG}`,
    ),
  },
  'a wrong ANSIBLE_VAULT_PASSWORD_FILE, named as such': {
    argv: ['inventory', '--list', '-i', 'inv.yaml'],
    files: FILES,
    setup: VRRP,
    env: { ANSIBLE_VAULT_PASSWORD_FILE: 'wrong' },
    code: 65,
    message: /the vault password given \(ANSIBLE_VAULT_PASSWORD_FILE \(wrong\)\) does not decrypt it/,
  },
  'play hosts with a wrong --vault-id': {
    argv: ['hosts', 'all', '-i', 'inv.yaml', '--vault-id', 'prod@wrong'],
    files: FILES,
    setup: VRRP,
    code: 65,
    message:
      /group_vars\/linux\.yml: .*the vault password given \(--vault-id prod@wrong\) does not decrypt it: a wrong password/,
  },
  'a --vault-password-file that does not exist': {
    argv: [...RUN, '--vault-password-file', 'nope'],
    files: FILES,
    code: 64,
    message: /^play: --vault-password-file nope: no such file$/m,
  },
  'an empty vault password file': {
    argv: [...RUN, '--vault-pass-file', 'empty'],
    files: { ...FILES, empty: '\n' },
    code: 65,
    message: /^play: --vault-password-file empty: the vault password is empty$/m,
  },
  'a --vault-id without a source': {
    argv: [...RUN, '--vault-id', 'prod@'],
    files: FILES,
    code: 64,
    message: /--vault-id prod@: expected \[LABEL@\]FILE or \[LABEL@\]prompt/,
  },
  'a !vault value and the wrong password: the file, its line and the variable': {
    argv: [...RUN, '--vault-password-file', 'wrong'],
    files: FILES,
    setup: (dir) => {
      const { token } = encryptStrings({ token: 'api-token-1' }, join(dir, 'pass'));
      mkdirSync(join(dir, 'group_vars'));
      writeFileSync(join(dir, 'group_vars/all.yml'), `api_token: ${vaultYaml(token!, 2)}`);
    },
    code: 65,
    message:
      /group_vars\/all\.yml:1: at api_token: this !vault value is encrypted with ansible-vault, and the vault password given/,
  },
  'a connection password from a vault that is not one text': {
    argv: [...RUN, '--vault-password-file', 'pass'],
    files: FILES,
    setup: encrypted(GROUP_VARS, 'ansible_become_password: [sudo-pass-1]\n'),
    code: 65,
    message: /ansible_become_password must be one password \(a !vault value or an env lookup\), got a list/,
  },
  'a vault-encrypted file with a text too short to mask': {
    argv: [...RUN, '--vault-password-file', 'pass'],
    files: FILES,
    setup: encrypted(GROUP_VARS, 'state: up\n'),
    code: 65,
    message:
      /at state: state comes from a vault-encrypted file, whose text play keeps as secrets, and is 2 characters long/,
  },
  '-e @FILE vault-encrypted, and no password given': {
    argv: [...RUN, '-e', '@vars.yml'],
    files: FILES,
    setup: encrypted('vars.yml', 'x: 1\n'),
    code: 65,
    message: new RegExp(`vars\\.yml: is encrypted with ansible-vault \\(vault id prod\\), ${NO_PASSWORD}`),
  },
  '-e @FILE that does not exist': {
    argv: [...RUN, '-e', '@nope.yml'],
    files: FILES,
    code: 64,
    message: /^play: -e @nope\.yml: no such file$/m,
  },
  '-e @FILE with a literal secret': {
    argv: [...RUN, '-e', '@vars.yml'],
    files: { ...FILES, 'vars.yml': 'vrrp_auth_pass: hunter22\n' },
    code: 65,
    message: /^(?![\s\S]*hunter22)play: .*vars\.yml:1: at vrrp_auth_pass: vrrp_auth_pass is written as a literal value/,
  },
  '-e a file without @': {
    argv: [...RUN, '-e', './vars.yml'],
    files: FILES,
    code: 64,
    message: /^play: -e \.\/vars\.yml: a file of variables is given as -e @\.\/vars\.yml$/m,
  },
  '-e key=value text with a word that is not key=value': {
    argv: [...RUN, '-e', 'dir=/srv/a b'],
    files: FILES,
    code: 64,
    message:
      /^play: -e b: expected key=value \(or @FILE, or a JSON object\); a value with spaces is quoted: key='a b'$/m,
  },
  '-e key=value text hiding a literal secret among other pairs': {
    argv: [...RUN, '-e', 'dir=/srv vrrp_auth_pass=hunter22'],
    files: FILES,
    code: 64,
    message: /^(?![\s\S]*hunter22)play: -e vrrp_auth_pass: its name says it holds a secret/,
  },
  '-i a host list with something that is not a host': {
    argv: ['hosts', 'all', '-i', 'h1,bad host,'],
    files: FILES,
    code: 65,
    message: /^play: -i h1,bad host,: 'bad host' is not a host name or address/m,
  },
};

cliTable(rows);

test('play inventory --list with a vault-encrypted group_vars: masked, and the same names as ansible-inventory', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-cli-vault-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'pass'), 'pw-prod\n');
  writeFileSync(join(dir, 'inv.yaml'), 'all:\n  children:\n    tor:\n      hosts:\n        tor1:\n        tor2:\n');
  encrypted(
    'group_vars/tor.yml',
    'vrrp_auth_pass: vrrp-secret-1\nvrrp_interface: eth1\nvrrp_virtual_router_id: 51\n',
  )(dir);
  const vault = ['--vault-id', `prod@${join(dir, 'pass')}`];
  const r = await play(['inventory', '--list', '-i', join(dir, 'inv.yaml'), ...vault]);
  t.is(r.code, 0, r.stderr);
  const hostvars = JSON.parse(r.stdout)._meta.hostvars;
  t.deepEqual(hostvars.tor1, { vrrp_auth_pass: '********', vrrp_interface: '********', vrrp_virtual_router_id: 51 });
  t.false(r.stdout.includes('vrrp-secret-1'));
  const ansible = (await ansibleInventory([join(dir, 'inv.yaml')], ['--list', ...vault])) as typeof hostvars;
  for (const host of ['tor1', 'tor2'])
    t.deepEqual(Object.keys(hostvars[host]).sort(), Object.keys(ansible._meta.hostvars[host]).sort(), host);
});

/** `play ARGS` on a terminal (util-linux's `script` makes a pty), typing `keys` once `prompt` shows. */
function onTerminal(
  args: string[],
  cwd: string,
  prompt: string,
  keys: string,
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, join(projectRoot, 'bin/play.mjs'), ...args].map((a) => `'${a}'`).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd, env: { ...process.env, PLAY_INVENTORY: '' } });
    let screen = '';
    let typed = false;
    child.stdout.on('data', (d) => {
      screen += d;
      // Typed only once asked: before, the terminal still echoes (as it would for a person).
      if (!typed && screen.includes(prompt)) {
        typed = true;
        child.stdin.write(keys);
      }
    });
    // A prompt that never comes must not hang the suite.
    const stop = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(stop);
      resolve({ code, screen });
    });
  });
}

test('--ask-vault-pass and --vault-id LABEL@prompt ask on the terminal without echo; Ctrl-C there is exit 130', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-cli-vault-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'pass'), 'pw-prod\n');
  writeFileSync(join(dir, 'inv.yaml'), 'all:\n  children:\n    tor:\n      hosts:\n        tor1:\n');
  encrypted('group_vars/tor.yml', 'vrrp_auth_pass: vrrp-secret-1\n')(dir);
  const list = ['inventory', '--list', '-i', 'inv.yaml'];
  const asked = await onTerminal([...list, '--ask-vault-pass'], dir, 'Vault password: ', 'pw-prod\r');
  t.is(asked.code, 0, asked.screen);
  t.regex(asked.screen, /^Vault password: \r?\n\{/);
  t.regex(asked.screen, /"vrrp_auth_pass": "\*\*\*\*\*\*\*\*"/);
  t.false(asked.screen.includes('pw-prod'), 'the password is not echoed');
  const labelled = await onTerminal(
    [...list, '--vault-id', 'prod@prompt'],
    dir,
    'Vault password (prod): ',
    'pw-X\x7fprod\r',
  );
  t.is(labelled.code, 0, `backspace edits what was typed: ${labelled.screen}`);
  const interrupted = await onTerminal([...list, '-J'], dir, 'Vault password: ', 'pw\x03');
  t.is(interrupted.code, 130, interrupted.screen);
  t.regex(interrupted.screen, /play: interrupted at the vault password prompt/);
});
