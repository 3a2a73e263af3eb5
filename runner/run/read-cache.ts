// What a host's files held when a kept connection last read them (content-read.ts), or what a
// step expects them to hold, so that a file is read only if it differs: the batch's prelude runs
// one sha256sum over the files the cache knows, and a file whose digest is the one known comes
// back as a marker that the controller replaces with the base64 it kept. The probe's output, once
// expanded, is byte for byte what the read would have printed: base64 is a function of the bytes,
// and the bytes are those of the digest. What is kept is checked on the way in: it must be the
// exact base64 of bytes whose digest it is kept under. Held in memory only, for as long as the
// connection is kept.
import { createHash } from 'node:crypto';
import { boundedMemo } from '../core/bounded-memo.js';
import { base64Lines, digestVariable, knownVariable, pathKey } from '../core/content-read.js';
import { quoteSh } from '../core/quote.js';

/** The most base64 text kept for one host (the oldest reads go first), and for one file. */
export const READ_CACHE_LIMITS = { hostBytes: 64 * 1024, fileBytes: 16 * 1024 };

/** What follows a batch's `@@NONCE@@` in a read's marker line (content-read.ts). */
const MARK = /^(hit|read) ([0-9a-f]{16})\n/;
const MARK_LENGTH = 'read '.length + 16 + 1;

interface Kept {
  readonly digest: string;
  readonly base64: string;
}

/** One batch's use of the cache: its prelude, and the expansion of its output. */
export interface ReadBatch {
  /** Sets the markers, the known digests, and the digests of those files now; runs before the probes. */
  readonly prelude: string;
  /** The batch's stdout with every hit replaced by its base64 and every read's markers removed. */
  expand(stdout: string): string;
}

export class ReadCache {
  readonly #kept = new Map<string, Kept>();
  #bytes = 0;

  constructor(readonly limits = READ_CACHE_LIMITS) {}

  /** Files kept, and their base64 bytes: for tests and the bench. */
  get size(): { files: number; bytes: number } {
    return { files: this.#kept.size, bytes: this.#bytes };
  }

  /**
   * A batch reading `paths`, framed by `nonce` (probe-batch.ts); `expected`: what the steps expect
   * files the cache does not know to hold, confirmed by their digest like what it kept.
   */
  batch(paths: readonly string[], nonce: string, expected?: ReadonlyMap<string, string>): ReadBatch {
    // The entries this batch's prelude names: a read another batch keeps meanwhile cannot change them.
    const known = new Map<string, Kept>();
    for (const p of paths) {
      const k = this.#kept.get(pathKey(p));
      const e = k ? undefined : expected?.get(p);
      if (k) known.set(p, k);
      else if (e !== undefined) known.set(p, expectedRead(e));
    }
    return {
      prelude: preludeScript(nonce, known),
      expand: (stdout) => this.#expand(stdout, nonce, known),
    };
  }

  #expand(stdout: string, nonce: string, known: ReadonlyMap<string, Kept>): string {
    // indexOf, not a RegExp: a nonce is new for every batch, and compiling a pattern per batch cost
    // more than the rest of a kept tick's controller side.
    const prefix = `@@${nonce}@@`;
    const byId = new Map([...known].map(([p, k]) => [pathKey(p), k]));
    let out = '';
    let from = 0;
    for (let at = stdout.indexOf(prefix); at >= 0; at = stdout.indexOf(prefix, from)) {
      const m = MARK.exec(stdout.slice(at + prefix.length, at + prefix.length + MARK_LENGTH));
      if (!m) {
        out += stdout.slice(from, at + prefix.length);
        from = at + prefix.length;
        continue;
      }
      out += stdout.slice(from, at);
      const [line, kind, id] = m as unknown as [string, string, string];
      const after = at + prefix.length + line.length;
      if (kind === 'hit') {
        const k = byId.get(id);
        if (!k) throw new Error(`the host answered a read from a digest this batch did not send (${id})`);
        out += k.base64;
        from = after;
        continue;
      }
      const done = `\n${prefix}done ${id} `;
      const end = stdout.indexOf(done, after);
      if (end < 0) {
        // Cut short (a timeout, a killed shell): the rest is the output as it came, markers and all.
        from = at;
        break;
      }
      const base64 = stdout.slice(after, end);
      const eol = stdout.indexOf('\n', end + done.length);
      if (stdout.slice(end + done.length, eol < 0 ? undefined : eol) === '0') this.#keep(id, base64);
      out += base64;
      from = eol < 0 ? stdout.length : eol + 1;
    }
    return out + stdout.slice(from);
  }

  /** Keeps `base64` if it is exactly the encoding of some bytes, under their digest; within the limits. */
  #keep(id: string, base64: string): void {
    const flat = base64.replace(/\n/g, '');
    const bytes = Buffer.from(flat, 'base64');
    if (bytes.toString('base64') !== flat || base64.length > this.limits.fileBytes) {
      this.#forget(id);
      return;
    }
    this.#forget(id);
    this.#kept.set(id, { digest: createHash('sha256').update(bytes).digest('hex'), base64 });
    this.#bytes += base64.length;
    for (const [oldest, k] of this.#kept) {
      if (this.#bytes <= this.limits.hostBytes) break;
      this.#kept.delete(oldest);
      this.#bytes -= k.base64.length;
    }
  }

  #forget(id: string): void {
    const k = this.#kept.get(id);
    if (!k) return;
    this.#kept.delete(id);
    this.#bytes -= k.base64.length;
  }
}

/** What a step expects a file to hold, as a read of it: every host of a run expects the same few. */
const expectedRead = boundedMemo((content: string): Kept => {
  const bytes = Buffer.from(content);
  return { digest: createHash('sha256').update(bytes).digest('hex'), base64: base64Lines(bytes) };
}, 64);

/**
 * The markers; the known digests; one sha256sum of the known files that are regular files now, each
 * line matched to its path by name (a file sha256sum could not read has no line; a name it had to
 * escape matches none: both read anew).
 */
function preludeScript(nonce: string, known: ReadonlyMap<string, Kept>): string {
  const paths = [...known.keys()];
  const lines = [
    `play_hit='@@${nonce}@@hit' play_read='@@${nonce}@@read' play_done='@@${nonce}@@done'`,
    ...[...known].map(([p, k]) => `${knownVariable(p)}=${k.digest}`),
  ];
  if (paths.length === 0) return lines.join('\n');
  lines.push(
    'set --',
    ...paths.map((p) => `if [ -f ${quoteSh(p)} ]; then set -- "$@" ${quoteSh(p)}; fi`),
    "play_nl='\n'",
    'if [ $# -gt 0 ]; then play_all=$(LC_ALL=C sha256sum -- "$@" 2>/dev/null); play_all="$play_all$play_nl"',
    ...paths.map(
      (p) =>
        `play_l=\${play_all%%"$play_nl"*}; if [ "\${play_l#*  }" = ${quoteSh(p)} ]; then ${digestVariable(p)}=\${play_l%%  *}; play_all=\${play_all#*"$play_nl"}; fi`,
    ),
    'fi',
  );
  return lines.join('\n');
}
