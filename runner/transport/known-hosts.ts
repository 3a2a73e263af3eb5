// OpenSSH known_hosts, read and appended the way ssh(1) does (sshd(8) "SSH_KNOWN_HOSTS FILE
// FORMAT"): `[@marker] patterns keytype base64 [comment]`, where patterns are a comma-separated
// list with `*`/`?` wildcards and `!` negation, or one hashed name `|1|base64(salt)|base64(hmac)`.
// A host on a port other than 22 is written `[address]:port`, in plain and hashed form alike.
import { createHash, createHmac } from 'node:crypto';
import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

export type Marker = 'revoked' | 'cert-authority';

export interface KnownHostEntry {
  /** 1-based line number in the file. */
  readonly line: number;
  readonly marker: Marker | null;
  /** The host field as written (patterns or a hashed name). */
  readonly hosts: string;
  readonly keyType: string;
  readonly keyBlob: Buffer;
}

export interface KnownHosts {
  readonly file: string;
  readonly entries: readonly KnownHostEntry[];
  /** Lines that were skipped as malformed, as ssh(1) skips them. */
  readonly skipped: readonly { line: number; reason: string }[];
}

export type LookupStatus = 'match' | 'unknown' | 'changed' | 'revoked';

export interface LookupResult {
  readonly status: LookupStatus;
  /** The line that matched, was revoked, or (for `changed`) holds the key the host used to have. */
  readonly line?: number;
  readonly knownFingerprint?: string;
  readonly knownKeyType?: string;
}

/** The name a host is known by: the address, or `[address]:port` when the port is not 22. */
export function hostKeyName(address: string, port: number): string {
  return port === 22 ? address : `[${address}]:${port}`;
}

/** `SHA256:` and the unpadded base64 of the key blob's SHA-256, as `ssh-keygen -l` prints it. */
export function fingerprint(keyBlob: Buffer): string {
  return 'SHA256:' + createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '');
}

/** The key type named by the blob's first SSH string (uint32 length + bytes). */
export function keyTypeOf(keyBlob: Buffer): string {
  if (keyBlob.length < 4) throw new Error('host key blob too short');
  const len = keyBlob.readUInt32BE(0);
  if (len === 0 || len > 64 || keyBlob.length < 4 + len) throw new Error('host key blob is malformed');
  return keyBlob.subarray(4, 4 + len).toString('latin1');
}

export function parseKnownHosts(text: string, file = 'known_hosts'): KnownHosts {
  const entries: KnownHostEntry[] = [];
  const skipped: { line: number; reason: string }[] = [];
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = i + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) continue;
    const fields = s.split(/[ \t]+/);
    let marker: Marker | null = null;
    if (fields[0]!.startsWith('@')) {
      const m = fields.shift()!;
      if (m === '@revoked') marker = 'revoked';
      else if (m === '@cert-authority') marker = 'cert-authority';
      else {
        skipped.push({ line, reason: `unknown marker ${m}` });
        continue;
      }
    }
    const [hosts, keyType, b64] = fields;
    if (!hosts || !keyType || !b64) {
      skipped.push({ line, reason: 'fewer than three fields' });
      continue;
    }
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
      skipped.push({ line, reason: 'key is not base64' });
      continue;
    }
    const keyBlob = Buffer.from(b64, 'base64');
    try {
      if (keyTypeOf(keyBlob) !== keyType) {
        skipped.push({ line, reason: `key is not of type ${keyType}` });
        continue;
      }
    } catch (e) {
      skipped.push({ line, reason: (e as Error).message });
      continue;
    }
    entries.push({ line, marker, hosts, keyType, keyBlob });
  }
  return { file, entries, skipped };
}

/** The last parse of each file, kept while the file's size and mtime are unchanged: a run of 1,000
 *  hosts reads known_hosts once per handshake, and parsing it each time made that quadratic. */
const parsed = new Map<string, { mtimeMs: number; size: number; known: KnownHosts }>();

/** Reads a known_hosts file; a missing file is an empty one (first contact). */
export function readKnownHosts(file: string): KnownHosts {
  let text: string;
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(file);
    const hit = parsed.get(file);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.known;
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { file, entries: [], skipped: [] };
    throw e;
  }
  const known = parseKnownHosts(text, file);
  // Same size and mtime after a write within the clock's resolution is possible: only a file whose
  // text matches its stat is cached (appendHost also drops the entry).
  if (Buffer.byteLength(text) === stat.size) parsed.set(file, { mtimeMs: stat.mtimeMs, size: stat.size, known });
  return known;
}

const patterns = new Map<string, RegExp>();

// OpenSSH's match_pattern: `*` any run, `?` one character, case-insensitive for host names.
function globMatch(name: string, pattern: string): boolean {
  if (!/[*?]/.test(pattern)) return name.toLowerCase() === pattern.toLowerCase();
  let re = patterns.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`,
      'i',
    );
    patterns.set(pattern, re);
  }
  return re.test(name);
}

function hashedMatch(name: string, field: string): boolean {
  const parts = field.split('|'); // ['', '1', salt, hash]
  if (parts.length !== 4 || parts[1] !== '1') return false;
  const salt = Buffer.from(parts[2]!, 'base64');
  const want = Buffer.from(parts[3]!, 'base64');
  return createHmac('sha1', salt).update(name).digest().equals(want);
}

/** True when the entry's host field names `name` (a negated pattern vetoes the line). */
export function hostsMatch(hosts: string, name: string): boolean {
  if (hosts.startsWith('|')) return hashedMatch(name, hosts);
  let positive = false;
  for (const p of hosts.split(',')) {
    if (p.startsWith('!')) {
      if (globMatch(name, p.slice(1))) return false;
    } else if (p !== '' && globMatch(name, p)) {
      positive = true;
    }
  }
  return positive;
}

/** A file's entries by the names they spell out, and those that must be matched one by one. */
interface NameIndex {
  /** Entries whose host field is only plain names (no pattern, negation or hash), by lowercased name. */
  readonly byName: ReadonlyMap<string, readonly number[]>;
  /** Hashed, wildcard and negated entries: each is matched against the name. */
  readonly others: readonly number[];
}

const indexes = new WeakMap<KnownHosts, NameIndex>();

// A run of 1,000 hosts looks up each against a file of 1,000 lines: matching every line per host
// cost the controller about 2 ms a host. Plain names are looked up; only the rest is matched.
function nameIndex(known: KnownHosts): NameIndex {
  let index = indexes.get(known);
  if (index) return index;
  const byName = new Map<string, number[]>();
  const others: number[] = [];
  known.entries.forEach((e, i) => {
    if (e.marker === 'cert-authority') return;
    const names = e.hosts.split(',').filter((n) => n !== '');
    if (e.hosts.startsWith('|') || names.some((n) => /[*?!]/.test(n))) others.push(i);
    else for (const n of new Set(names.map((x) => x.toLowerCase()))) byName.set(n, [...(byName.get(n) ?? []), i]);
  });
  index = { byName, others };
  indexes.set(known, index);
  return index;
}

function entriesFor(known: KnownHosts, address: string, port: number): KnownHostEntry[] {
  const name = hostKeyName(address, port).toLowerCase();
  const { byName, others } = nameIndex(known);
  const matched = [...(byName.get(name) ?? []), ...others.filter((i) => hostsMatch(known.entries[i]!.hosts, name))];
  return matched.sort((a, b) => a - b).map((i) => known.entries[i]!);
}

/** Key types recorded for the host, in file order: offered first in the key exchange. */
export function knownKeyTypes(known: KnownHosts, address: string, port: number): string[] {
  const types = entriesFor(known, address, port)
    .filter((e) => e.marker === null)
    .map((e) => e.keyType);
  return [...new Set(types)];
}

/**
 * Checks the key a host offered. A revoked key is refused before anything else; `changed` means
 * the host has entries but none holds the offered key (any type: we ask for known types first).
 */
export function lookup(
  file: KnownHosts | string,
  address: string,
  port: number,
  keyType: string,
  keyBlob: Buffer,
): LookupResult {
  const known = typeof file === 'string' ? readKnownHosts(file) : file;
  const entries = entriesFor(known, address, port);
  const revoked = entries.find((e) => e.marker === 'revoked' && e.keyBlob.equals(keyBlob));
  if (revoked)
    return {
      status: 'revoked',
      line: revoked.line,
      knownFingerprint: fingerprint(revoked.keyBlob),
      knownKeyType: revoked.keyType,
    };
  const plain = entries.filter((e) => e.marker === null);
  const hit = plain.find((e) => e.keyType === keyType && e.keyBlob.equals(keyBlob));
  if (hit)
    return { status: 'match', line: hit.line, knownFingerprint: fingerprint(hit.keyBlob), knownKeyType: hit.keyType };
  if (plain.length === 0) return { status: 'unknown' };
  const old = plain.find((e) => e.keyType === keyType) ?? plain[0]!;
  return { status: 'changed', line: old.line, knownFingerprint: fingerprint(old.keyBlob), knownKeyType: old.keyType };
}

function endsWithNewline(file: string): boolean {
  const size = statSync(file).size;
  if (size === 0) return true;
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/**
 * Records a host key (accept-new): one plain line, `[address]:port` when the port is not 22.
 * Synchronous on purpose: hosts accepted in parallel must not interleave their lines.
 */
export function appendHost(file: string, address: string, port: number, keyType: string, keyBlob: Buffer): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let prefix = '';
  try {
    if (!endsWithNewline(file)) prefix = '\n';
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const line = `${prefix}${hostKeyName(address, port)} ${keyType} ${keyBlob.toString('base64')}\n`;
  parsed.delete(file);
  appendFileSync(file, line, { mode: 0o600 });
}
