// The vault format against Debian's ansible-vault (the oracle, run at test time: without it these tests
// fail, they never skip): what it encrypts (encrypt_string and encrypt, format 1.1 and 1.2 with vault
// ids), play decrypts to the same text; a wrong password, a tampered HMAC or ciphertext, a damaged
// envelope are refused with one clear sentence, and never yield plaintext.
import test from 'ava';
import { createCipheriv, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret } from '../../runner/core/secret.js';
import { decryptEnvelope, parseEnvelope } from '../../runner/vault/format.js';
import { VaultError, VaultKeyring, type VaultPassword } from '../../runner/vault/keyring.js';
import { encryptFile, encryptStrings } from '../inventory/ansible-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'play-vault-format-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const passwordFile = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const ONE = passwordFile('one', 'pw-one\n');
const TWO = passwordFile('two', 'pw-two\n');

const password = (text: string, id = 'default', from = `--vault-password-file ${text}`): VaultPassword => ({
  id,
  password: new Secret(text, 'test'),
  from,
});

/** Plaintexts around the 16-byte block (padding of a whole block), multi-byte UTF-8, lines. */
const PLAIN: Record<string, string> = {
  short: 'abcd',
  fifteen: 'a'.repeat(15),
  sixteen: 'b'.repeat(16),
  seventeen: 'c'.repeat(17),
  unicode: 'pässwörd ✓ 密码',
  lines: 'line one\nline two\n',
  quotes: `it's "quoted" \\ and $dollar`,
};

let v11: Record<string, string>;
let v12: Record<string, string>;
test.before(() => {
  v11 = encryptStrings(PLAIN, ONE);
  v12 = encryptStrings(PLAIN, TWO, 'prod');
});

test('encrypt_string, format 1.1: every value decrypts to its plaintext', (t) => {
  const keyring = new VaultKeyring([password('pw-one')]);
  for (const [name, plain] of Object.entries(PLAIN)) {
    t.true(v11[name]!.startsWith('$ANSIBLE_VAULT;1.1;AES256\n'), name);
    t.is(keyring.decrypt(v11[name]!).toString('utf8'), plain, name);
  }
});

test('encrypt_string, format 1.2 with vault id prod: the label is read, and every value decrypts', (t) => {
  for (const [name, plain] of Object.entries(PLAIN)) {
    t.like(parseEnvelope(v12[name]!), { version: '1.2', cipher: 'AES256', id: 'prod' });
    // Labelled prod, tried first; or the right password under another label (labels only order the attempts, as in ansible).
    for (const ring of [[password('pw-one', 'dev'), password('pw-two', 'prod')], [password('pw-two', 'dev')]])
      t.is(new VaultKeyring(ring).decrypt(v12[name]!).toString('utf8'), plain, name);
  }
});

test('a whole file encrypted with --vault-id label@file (1.2) and with --vault-password-file (1.1)', (t) => {
  const yaml = 'vrrp_auth_pass: s3cret-pass\nlist: [1, 2]\n';
  for (const [label, file, pw] of [
    ['ops', TWO, 'pw-two'],
    [undefined, ONE, 'pw-one'],
  ] as const) {
    const target = join(dir, `vars-${label ?? 'none'}.yml`);
    writeFileSync(target, yaml);
    encryptFile(target, file, label);
    const text = readFileSync(target, 'utf8');
    t.true(text.startsWith(label ? '$ANSIBLE_VAULT;1.2;AES256;ops\n' : '$ANSIBLE_VAULT;1.1;AES256\n'));
    t.is(new VaultKeyring([password(pw)]).decrypt(text).toString('utf8'), yaml);
  }
});

const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (e instanceof VaultError) return e.sentence('is');
    throw e;
  }
  throw new Error('not refused');
};

test('a wrong password: refused, naming the vault id and where each password came from', (t) => {
  t.is(
    refusal(() => new VaultKeyring([password('nope', 'default', '--vault-password-file /x')]).decrypt(v11.short!)),
    'is encrypted with ansible-vault, and the vault password given (--vault-password-file /x) does not decrypt it: ' +
      'a wrong password, or the file changed since it was encrypted',
  );
  t.is(
    refusal(() =>
      new VaultKeyring([
        password('nope', 'dev', '--vault-id dev@/d'),
        password('nah', 'default', 'the prompt'),
      ]).decrypt(v12.short!),
    ),
    'is encrypted with ansible-vault (vault id prod), and none of the 2 vault passwords given (--vault-id dev@/d, the prompt) ' +
      'decrypts it (none is labelled prod: --vault-id prod@FILE): a wrong password, or the file changed since it was encrypted',
  );
});

test('no password given: refused, naming the flags that give one', (t) => {
  t.is(
    refusal(() => new VaultKeyring().decrypt(v12.short!)),
    'is encrypted with ansible-vault (vault id prod), and no vault password was given: pass --vault-password-file FILE, ' +
      '--vault-id [LABEL@]FILE or --ask-vault-pass (or set ANSIBLE_VAULT_PASSWORD_FILE)',
  );
});

/** The vault text with one hex digit of the inner payload's `part` (0 salt, 1 HMAC, 2 ciphertext) changed. */
function tamper(vaultText: string, part: number): string {
  const [header, ...rows] = vaultText.split('\n');
  const inner = Buffer.from(rows.join(''), 'hex').toString('latin1').split('\n');
  const p = inner[part]!;
  inner[part] = (p[0] === '0' ? '1' : '0') + p.slice(1);
  const hex = Buffer.from(inner.join('\n'), 'latin1').toString('hex');
  return `${header}\n${hex.match(/.{1,80}/g)!.join('\n')}`;
}

test('a tampered HMAC or ciphertext is refused before anything is decrypted', (t) => {
  const keyring = new VaultKeyring([password('pw-one')]);
  for (const part of [1, 2]) {
    const tampered = tamper(v11.seventeen!, part);
    t.is(decryptEnvelope(parseEnvelope(tampered), Buffer.from('pw-one')), null, `part ${part}`);
    t.regex(
      refusal(() => keyring.decrypt(tampered)),
      /does not decrypt it: a wrong password, or the file changed/,
    );
  }
  t.is(keyring.decrypt(v11.seventeen!).toString(), PLAIN.seventeen, 'untouched, it decrypts');
});

test('damaged envelopes: one sentence each', (t) => {
  const keyring = new VaultKeyring([password('pw-one')]);
  const cases: [string, string][] = [
    ['$ANSIBLE_VAULT;1.1\n6162\n', 'its first line is not a vault header such as $ANSIBLE_VAULT;1.1;AES256'],
    [
      '$ANSIBLE_VAULT;1.1;AES128\n6162\n',
      "it is encrypted with cipher AES128, and ansible-vault's only cipher is AES256",
    ],
    ['$ANSIBLE_VAULT;1.1;AES256\nxyz\n', 'its payload is not hexadecimal'],
    ['$ANSIBLE_VAULT;1.1;AES256\n6162\n', 'its payload does not hold a salt, an HMAC and a ciphertext'],
  ];
  for (const [text, why] of cases)
    t.is(
      refusal(() => keyring.decrypt(text)),
      `is marked as ansible-vault encrypted but cannot be read: ${why}`,
    );
});

test('a payload whose HMAC matches but whose padding is not PKCS#7 is refused, not returned', (t) => {
  // Made here the way ansible makes one, with the padding left off: only a writer other than ansible does that.
  const salt = randomBytes(32);
  const key = pbkdf2Sync('pw', salt, 10_000, 80, 'sha256');
  const cipher = createCipheriv('aes-256-ctr', key.subarray(0, 32), key.subarray(64));
  const ciphertext = Buffer.concat([cipher.update('unpadded text!!\u0003'), cipher.final()]);
  const hmac = createHmac('sha256', key.subarray(32, 64)).update(ciphertext).digest('hex');
  const inner = [salt.toString('hex'), hmac, ciphertext.toString('hex')].join('\n');
  const text = `$ANSIBLE_VAULT;1.1;AES256\n${Buffer.from(inner).toString('hex')}\n`;
  t.is(
    refusal(() => new VaultKeyring([password('pw')]).decrypt(text)),
    'is encrypted with ansible-vault, and its payload is damaged: its decrypted payload is not padded as ansible-vault pads it',
  );
});
