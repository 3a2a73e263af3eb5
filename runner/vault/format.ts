// Ansible Vault's format (ansible-core's parsing/vault: VaultLib and VaultAES256), read-only:
//   $ANSIBLE_VAULT;1.1;AES256            or  $ANSIBLE_VAULT;1.2;AES256;LABEL   (1.2 names a vault id)
//   hex( hex(salt) \n hex(hmac) \n hex(ciphertext) ), wrapped at 80 columns
// Keys: PBKDF2-HMAC-SHA256 of the password and salt, 10,000 iterations, 80 bytes: 32 for AES-256, 32 for
// the HMAC, 16 for the CTR counter block. The HMAC-SHA256 of the ciphertext is checked (in constant
// time) before anything is decrypted: a wrong password and a tampered file look the same, and neither
// yields plaintext. The plaintext carries PKCS#7 padding, as ansible pads before encrypting.
import { createDecipheriv, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto';

export const VAULT_HEADER = '$ANSIBLE_VAULT';

/** A vault envelope, parsed: its format version, cipher, vault id (1.2) and the parts of its payload.
 *  As in ansible, the version is not checked: the cipher decides how the payload is read. */
export interface VaultEnvelope {
  readonly version: string;
  readonly cipher: string;
  /** The label of a 1.2 envelope (`--vault-id LABEL@...`); absent in 1.1. */
  readonly id?: string;
  readonly salt: Buffer;
  readonly hmac: Buffer;
  readonly ciphertext: Buffer;
}

/** A text that is not a vault envelope play can read; `message` ends a sentence naming the file. */
export class VaultFormatError extends Error {}

/** A YAML `!vault` value (the text `ansible-vault encrypt_string` prints), decrypted when the value is read. */
export class VaultText {
  constructor(readonly text: string) {}
}

/** True when `text` is vault-encrypted (ansible's is_encrypted: it starts with the header). */
export function isVaultText(text: string): boolean {
  return text.startsWith(VAULT_HEADER);
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

function unhex(text: string, what: string): Buffer {
  if (!HEX.test(text)) throw new VaultFormatError(`its ${what} is not hexadecimal`);
  return Buffer.from(text, 'hex');
}

/** ansible's parse_vaulttext_envelope and parse_vaulttext. */
export function parseEnvelope(text: string): VaultEnvelope {
  const [header = '', ...body] = text.split(/\r?\n/);
  const fields = header.trim().split(';');
  if (fields[0] !== VAULT_HEADER || fields.length < 3)
    throw new VaultFormatError(`its first line is not a vault header such as ${VAULT_HEADER};1.1;AES256`);
  const version = fields[1]!.trim();
  const cipher = fields[2]!.trim();
  if (cipher !== 'AES256')
    throw new VaultFormatError(`it is encrypted with cipher ${cipher}, and ansible-vault's only cipher is AES256`);
  const id = fields.length >= 4 ? fields[3]!.trim() : undefined;
  const inner = unhex(body.map((l) => l.trim()).join(''), 'payload').toString('latin1');
  const parts = inner.split('\n');
  if (parts.length < 3) throw new VaultFormatError('its payload does not hold a salt, an HMAC and a ciphertext');
  const [salt, hmac, ...rest] = parts;
  return {
    version,
    cipher,
    ...(id ? { id } : {}),
    salt: unhex(salt!, 'salt'),
    hmac: unhex(hmac!, 'HMAC'),
    ciphertext: unhex(rest.join('\n'), 'ciphertext'),
  };
}

const ITERATIONS = 10_000;
const KEY_LENGTH = 32;
const IV_LENGTH = 16;

/**
 * The plaintext of `envelope` under `password`, or null when the HMAC does not match (a wrong
 * password, or a payload changed since it was encrypted).
 */
export function decryptEnvelope(envelope: VaultEnvelope, password: Buffer): Buffer | null {
  const derived = pbkdf2Sync(password, envelope.salt, ITERATIONS, 2 * KEY_LENGTH + IV_LENGTH, 'sha256');
  const cipherKey = derived.subarray(0, KEY_LENGTH);
  const hmacKey = derived.subarray(KEY_LENGTH, 2 * KEY_LENGTH);
  const iv = derived.subarray(2 * KEY_LENGTH);
  const expected = createHmac('sha256', hmacKey).update(envelope.ciphertext).digest();
  if (envelope.hmac.length !== expected.length || !timingSafeEqual(envelope.hmac, expected)) return null;
  const decipher = createDecipheriv('aes-256-ctr', cipherKey, iv);
  const padded = Buffer.concat([decipher.update(envelope.ciphertext), decipher.final()]);
  return unpad(padded);
}

/** PKCS#7 with 16-byte blocks; bad padding under a matching HMAC is a file ansible did not write. */
function unpad(padded: Buffer): Buffer {
  const n = padded.at(-1) ?? 0;
  const valid = n >= 1 && n <= 16 && n <= padded.length && padded.subarray(-n).every((b) => b === n);
  if (!valid) throw new VaultFormatError('its decrypted payload is not padded as ansible-vault pads it');
  return padded.subarray(0, padded.length - n);
}
