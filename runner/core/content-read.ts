// A file's content read as base64 (`base64 < path`), written so that a read cache on the controller
// can answer it instead: a schedule checks the same files every tick, and a host's cheapest read is
// the one it does not make. The script prints exactly what `base64 < path` prints, or, inside a
// batch whose prelude set the markers (read-cache.ts):
//   - `<hit> <id>` when the batch's one sha256sum of the file equals the digest the controller
//     knows for it (the controller puts back the base64 it holds for that digest);
//   - `<read> <id>`, the base64, and `\n<done> <id> <status>` otherwise, so the controller can keep
//     what it read, under the digest of what it decodes to.
// Without the markers (no cache, or the script run alone) it is the plain read. LC_ALL=C as for
// every probe program (shared-stat.ts).
import { createHash } from 'node:crypto';
import { boundedMemo } from './bounded-memo.js';
import { raw, Script, sh } from './quote.js';

/** A name for `path` that is valid in a shell variable: a digest, so any path has one. */
export const pathKey: (path: string) => string = boundedMemo(
  (path: string) => createHash('sha256').update(path).digest('hex').slice(0, 16),
  4096,
);

/** The shell variable holding the digest the batch's prelude computed for `path`. */
export function digestVariable(path: string): string {
  return `play_sha_${pathKey(path)}`;
}

/** The shell variable holding the digest the controller knows `path`'s base64 for. */
export function knownVariable(path: string): string {
  return `play_known_${pathKey(path)}`;
}

/** What `base64 < path` prints for a file holding `bytes` (GNU and busybox: lines of 76, each ended). */
export function base64Lines(bytes: Buffer): string {
  const flat = bytes.toString('base64');
  let out = '';
  for (let i = 0; i < flat.length; i += 76) out += `${flat.slice(i, i + 76)}\n`;
  return out;
}

/** `base64 < path`, answerable from a read cache; its status is the read's (0 for a hit). */
export function contentReadScript(path: string): Script {
  const id = raw(pathKey(path));
  const now = raw(`"\${${digestVariable(path)}-}"`);
  const known = raw(`"\${${knownVariable(path)}-}"`);
  const script = sh`if [ -n ${known} ] && [ ${now} = ${known} ]; then printf '%s %s\\n' "$play_hit" ${id}
elif [ -n "\${play_read-}" ]; then printf '%s %s\\n' "$play_read" ${id}; LC_ALL=C base64 < ${path}; play_rc=$?; printf '\\n%s %s %s\\n' "$play_done" ${id} "$play_rc"; [ "$play_rc" = 0 ]
else LC_ALL=C base64 < ${path}; fi`;
  return new Script('sh', script.text, { readPaths: [path] });
}
