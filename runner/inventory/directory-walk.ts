// Walking an inventory directory or a group_vars/host_vars directory as ansible does: entries in
// Python's sorted() order, subdirectories walked in place. A link back to a directory being walked
// is an error naming it, where ansible would walk it until the path grows too long.
import { readdirSync, realpathSync } from 'node:fs';
import { InventoryError } from '../core/errors.js';

/** Python's sorted() of file names: by code point (bytes for UTF-8), not by locale. */
export function sortedNames(dir: string): string[] {
  // Each name encoded once, not once per comparison: host_vars/ may hold a file per host.
  return readdirSync(dir)
    .map((name) => ({ name, bytes: Buffer.from(name) }))
    .sort((a, b) => Buffer.compare(a.bytes, b.bytes))
    .map((e) => e.name);
}

/**
 * The real paths of the directories being walked, `dir` added; an InventoryError when `dir` is
 * (through a symbolic link) one of them already.
 */
export function enterDirectory(dir: string, walking: ReadonlySet<string> = new Set()): Set<string> {
  const real = realpathSync(dir);
  if (walking.has(real))
    throw new InventoryError(
      dir,
      '',
      `is a symbolic link loop: it leads back to ${real}, which contains it, so the walk would never end: remove the link`,
    );
  return new Set(walking).add(real);
}
