// What a set of input files and directories hold, told apart without reading them: each path's type,
// device and inode, mode, size, and modification and change times in nanoseconds; a directory's
// entries walked when asked. Two equal snapshots mean nothing was written, renamed, made or removed
// in between, by the rule git's index trusts a file's stat with, and the same caveat: a write so close
// to a read that the file system's timestamps cannot tell them apart. So a snapshot vouches for its
// inputs only when every one of them is older than the read by SETTLED_NS (`unchangedSince`).
import { type BigIntStats, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface InputRoot {
  readonly path: string;
  /** A directory's entries too, recursively, links followed; else the path itself. */
  readonly walk: boolean;
}

export interface InputSnapshot {
  /** Every path seen with its signature, one per line: equal texts, equal inputs. */
  readonly text: string;
  /** The latest modification or change time seen, in ns since the epoch. */
  readonly newestNs: bigint;
  /** False past the entry limit: too many to vouch for. */
  readonly complete: boolean;
}

/** Two seconds (FAT's timestamps) and one more for the coarse clock the kernel stamps files with. */
export const SETTLED_NS = 3_000_000_000n;

/** The entries a snapshot reads before it gives up (complete: false). */
const MAX_ENTRIES = 10_000;

export function snapshotInputs(roots: readonly InputRoot[], maxEntries = MAX_ENTRIES): InputSnapshot {
  const lines: string[] = [];
  let newestNs = 0n;
  const seenDirs = new Set<string>();
  const visit = (path: string, walk: boolean): boolean => {
    if (lines.length >= maxEntries) return false;
    let st: BigIntStats | undefined;
    try {
      st = statSync(path, { bigint: true, throwIfNoEntry: false });
    } catch (e) {
      lines.push(`${path}\terror ${(e as NodeJS.ErrnoException).code ?? 'unknown'}`);
      return true;
    }
    if (!st) {
      lines.push(`${path}\tabsent`);
      return true;
    }
    const kind = st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
    lines.push(`${path}\t${kind} ${st.dev} ${st.ino} ${st.mode} ${st.size} ${st.mtimeNs} ${st.ctimeNs}`);
    for (const t of [st.mtimeNs, st.ctimeNs]) if (t > newestNs) newestNs = t;
    if (!walk || kind !== 'dir') return true;
    const id = `${st.dev}:${st.ino}`;
    if (seenDirs.has(id)) return true; // a link back up the tree
    seenDirs.add(id);
    let names: string[];
    try {
      names = readdirSync(path).sort();
    } catch (e) {
      lines.push(`${path}/\terror ${(e as NodeJS.ErrnoException).code ?? 'unknown'}`);
      return true;
    }
    return names.every((name) => visit(join(path, name), true));
  };
  const complete = roots.every((r) => visit(r.path, r.walk));
  return { text: lines.join('\n'), newestNs, complete };
}

/** The time now, in the unit of the snapshots' times. */
export const nowNs = (): bigint => BigInt(Date.now()) * 1_000_000n;

/**
 * Whether `now` shows the inputs exactly as they were when `before` was taken, for a read that began
 * at `readAtNs`: complete, equal, and every input settled well before that read began.
 */
export function unchangedSince(before: InputSnapshot, now: InputSnapshot, readAtNs: bigint): boolean {
  return before.complete && now.complete && before.text === now.text && before.newestNs < readAtNs - SETTLED_NS;
}
