// A private key file as ssh2 uses it, read once per run rather than once per host.
// - The file is parsed again only when its stat changes (device, inode, size, mtime, mode, owner), so
//   a key edited, replaced or chmod-ed during a run is read afresh, with its checks.
// - ssh2's parsed key signs with its PEM text, which Node parses again on every signature (~0.6 ms
//   of CPU for an Ed25519 key, against ~0.05 ms with a parsed KeyObject): at 1,000 hosts that is
//   half a second of the controller. The key read here signs with a KeyObject made once, producing
//   the same signature bytes (Ed25519 and RSA PKCS#1 v1.5 are deterministic; tested).
import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { readFileSync, type Stats, statSync } from 'node:fs';
import ssh2 from 'ssh2';
import type { ParsedKey } from 'ssh2';

const { utils } = ssh2;

/** Why a key file cannot be used: `missing` and `encrypted` ones named by ssh_config are passed over, as ssh does. */
export type KeyProblem = { problem: string; kind: 'missing' | 'encrypted' | 'unprotected' | 'invalid' };
export type KeyRead = { key: ParsedKey } | KeyProblem;

const read = new Map<string, { identity: string; result: KeyRead }>();

function identityOf(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.mode}:${st.uid}`;
}

/** The key at `path`, or why it cannot be used (missing, unreadable, encrypted, not a key, readable by others). */
export function readPrivateKey(path: string): KeyRead {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (e) {
    return unreadable(e);
  }
  const identity = identityOf(st);
  const known = read.get(path);
  if (known?.identity === identity) return known.result;
  const result = parseKeyFile(path, st);
  read.set(path, { identity, result });
  return result;
}

function unreadable(e: unknown): KeyProblem {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return { problem: 'not found', kind: 'missing' };
  return { problem: `cannot be read (${code ?? (e as Error).message})`, kind: 'invalid' };
}

function parseKeyFile(path: string, st: Stats): KeyRead {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (e) {
    return unreadable(e);
  }
  const parsed = utils.parseKey(data);
  const encrypted = parsed instanceof Error && /passphrase/i.test(parsed.message);
  if (parsed instanceof Error && !encrypted)
    return { problem: `is not a private key ssh2 can read (${parsed.message})`, kind: 'invalid' };
  const key = parsed instanceof Error ? undefined : Array.isArray(parsed) ? parsed[0]! : parsed;
  if (key && !key.isPrivateKey()) return { problem: 'holds a public key, not a private key', kind: 'invalid' };
  const open = unprotected(path, st);
  if (open) return { problem: open, kind: 'unprotected' };
  if (!key)
    return {
      problem: `is encrypted and play cannot ask for its passphrase: load it into ssh-agent (ssh-add ${path}) instead`,
      kind: 'encrypted',
    };
  return { key: signingOnce(key) };
}

/** OpenSSH's sshkey_perm_ok: a key of the user's own that group or others may read or write is refused. */
function unprotected(path: string, st: Stats): string | undefined {
  if (st.uid !== process.getuid?.() || (st.mode & 0o077) === 0) return undefined;
  const mode = (st.mode & 0o777).toString(8).padStart(4, '0');
  return `is an UNPROTECTED PRIVATE KEY FILE: mode ${mode} lets group or others at it, and ssh refuses such a key too: chmod 600 ${path}`;
}

/** ssh2 keeps a parsed key's PEM and default hash under symbols of its own; found by their description.
 *  Should a later ssh2 name them otherwise, the key keeps ssh2's own (slower) signing. */
function ownSymbol(key: ParsedKey, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(key).find((s) => s.description === description);
}

/** `key`, signing with a KeyObject parsed once instead of its PEM text on every call. */
export function signingOnce(key: ParsedKey): ParsedKey {
  const pemSymbol = ownSymbol(key, 'Private key PEM');
  const hashSymbol = ownSymbol(key, 'Hash Algorithm');
  const pem = pemSymbol && (key as unknown as Record<symbol, unknown>)[pemSymbol];
  if (typeof pem !== 'string' || !hashSymbol) return key;
  let keyObject: KeyObject;
  try {
    keyObject = createPrivateKey(pem);
  } catch {
    return key;
  }
  const defaultHash = (key as unknown as Record<symbol, string | null>)[hashSymbol] ?? null;
  // ssh2's contract (keyParser.js): the signature, or the Error, returned rather than thrown.
  const fast = (data: Buffer, algo?: string): Buffer | Error => {
    try {
      return sign(algo || defaultHash, data, keyObject);
    } catch (e) {
      return e as Error;
    }
  };
  Object.defineProperty(key, 'sign', { value: fast, configurable: true, writable: true });
  return key;
}
