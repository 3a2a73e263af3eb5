// Where vault passwords come from (openVault), checked against ansible-vault where it reads the same
// source: a password file (its whole content, surrounding whitespace stripped), an executable password
// script (its stdout), a `-client` script asked for its label; the order of --vault-id, the password
// files, ANSIBLE_VAULT_PASSWORD_FILE and the prompt; and what is refused, with the flag named.
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError, UsageError } from '../../runner/core/errors.js';
import { openVault } from '../../runner/vault/passwords.js';
import { encryptStrings } from '../inventory/ansible-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'play-vault-passwords-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string, mode = 0o600) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
};
const NO_ENV = {};
const noPrompt = async () => {
  throw new Error('not asked');
};

/** ansible-vault encrypts with `source` (a file or a script it runs); play, given the same source, decrypts. */
async function sameAsAnsible(t: { is: (a: unknown, b: unknown, m?: string) => void }, source: string, label?: string) {
  const { x } = encryptStrings({ x: 'the value' }, source, label);
  const flags = label ? { vaultIds: [`${label}@${source}`] } : { passwordFiles: [source] };
  const keyring = await openVault(flags, NO_ENV, noPrompt);
  t.is(keyring.decrypt(x!).toString(), 'the value', source);
}

test('a password file: its whole content, surrounding whitespace stripped, as ansible reads it', async (t) => {
  await sameAsAnsible(t, file('plain', 'pw-plain\n'));
  await sameAsAnsible(t, file('spaced', '  \tpw spaced inside \r\n\n'));
  // Two lines are one password of two lines for ansible (not its first line): the same here.
  const twoLines = file('two-lines', 'first line\nsecond line\n');
  await sameAsAnsible(t, twoLines);
  const keyring = await openVault({ passwordFiles: [twoLines] }, NO_ENV, noPrompt);
  t.is(keyring.passwords[0]!.password.reveal(), 'first line\nsecond line');
});

test('an executable password file is run, and its stdout is the password', async (t) => {
  await sameAsAnsible(t, file('script.sh', '#!/bin/sh\necho "pw-from-script"\n', 0o700));
});

test('a -client script is asked for its label with --vault-id LABEL, as ansible asks it', async (t) => {
  const client = file(
    'vault-keys-client.sh',
    '#!/bin/sh\n[ "$1" = --vault-id ] || exit 3\ncase "$2" in prod) echo pw-prod ;; *) exit 2 ;; esac\n',
    0o700,
  );
  await sameAsAnsible(t, client, 'prod');
  const e = await t.throwsAsync(openVault({ vaultIds: [`dev@${client}`] }, NO_ENV, noPrompt), {
    instanceOf: InputError,
  });
  t.is(e.message, `--vault-id dev@${client}: the password script has no password for vault id dev`);
});

test('the order: each --vault-id, then the password files, then ANSIBLE_VAULT_PASSWORD_FILE, then the prompt', async (t) => {
  const a = file('a', 'pw-a');
  const b = file('b', 'pw-b');
  const c = file('c', 'pw-c');
  const asked: string[] = [];
  const keyring = await openVault(
    { vaultIds: [`prod@${a}`, 'dev@prompt'], passwordFiles: [b], ask: true },
    { ANSIBLE_VAULT_PASSWORD_FILE: c },
    async (question) => {
      asked.push(question);
      return `typed-${asked.length}`;
    },
  );
  t.deepEqual(
    keyring.passwords.map((p) => [p.id, p.from, p.password.reveal()]),
    [
      ['prod', `--vault-id prod@${a}`, 'pw-a'],
      ['dev', '--vault-id dev@prompt', 'typed-1'],
      ['default', `--vault-password-file ${b}`, 'pw-b'],
      ['default', `ANSIBLE_VAULT_PASSWORD_FILE (${c})`, 'pw-c'],
      ['default', 'the prompt', 'typed-2'],
    ],
  );
  t.deepEqual(asked, ['Vault password (dev): ', 'Vault password: ']);
  t.is(String(keyring.passwords[0]!.password), '********', 'a Secret');
});

test('refused, naming the flag: a missing file (64), a directory (64), an empty password (65), a failing script (65)', async (t) => {
  mkdirSync(join(dir, 'adir'), { recursive: true });
  const rows: [Parameters<typeof openVault>[0], typeof UsageError | typeof InputError, string][] = [
    [{ passwordFiles: [join(dir, 'nope')] }, UsageError, `--vault-password-file ${join(dir, 'nope')}: no such file`],
    [
      { vaultIds: [`x@${join(dir, 'adir')}`] },
      UsageError,
      `--vault-id x@${join(dir, 'adir')}: is a directory, expected a vault password file`,
    ],
    [
      { passwordFiles: [file('empty', ' \n')] },
      InputError,
      `--vault-password-file ${join(dir, 'empty')}: the vault password is empty`,
    ],
    [
      { passwordFiles: [file('fails.sh', '#!/bin/sh\nexit 4\n', 0o700)] },
      InputError,
      `--vault-password-file ${join(dir, 'fails.sh')}: the password script exited with status 4`,
    ],
    [{ vaultIds: ['prod@'] }, UsageError, '--vault-id prod@: expected [LABEL@]FILE or [LABEL@]prompt'],
  ];
  for (const [flags, type, message] of rows) {
    const e = await t.throwsAsync(openVault(flags, NO_ENV, noPrompt), { instanceOf: type });
    t.is(e.message, message);
  }
  const none = await openVault({}, NO_ENV, noPrompt);
  t.is(none.passwords.length, 0, 'no flag, no environment: no password, and no prompt');
});
