// What a rolling run was started with, as content hashes: its playbook file and its inventory's
// sources (a directory: every file under it, by relative path). A controller resuming a run compares
// them with its own files: another checkout, or files edited since, could plan another rollout under
// the same journal.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface SourceHashes {
  readonly playbook: string;
  readonly inventory: string;
}

/** Every regular file under `dir`, sorted, with its path relative to `root`. */
function filesUnder(dir: string, root: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) filesUnder(path, root, out);
    else if (e.isFile()) out.push(relative(root, path));
  }
  return out;
}

/** One hash of the files at `paths` (a directory: every file under it, by relative path). */
export function contentHash(paths: readonly string[]): string {
  const h = createHash('sha256');
  for (const p of paths) {
    const files = statSync(p).isDirectory() ? filesUnder(p, p).map((f) => [f, join(p, f)] as const) : [[p, p] as const];
    for (const [name, file] of files) h.update(`${name}\0`).update(readFileSync(file)).update('\0');
  }
  return `sha256:${h.digest('hex')}`;
}

export function sourceHashes(playbookFile: string, inventorySources: readonly string[]): SourceHashes {
  return { playbook: contentHash([playbookFile]), inventory: contentHash(inventorySources) };
}

/** What differs between the run's recorded hashes and these files' ('the playbook', 'the inventory'). */
export function changedSources(recorded: SourceHashes, now: SourceHashes): string[] {
  return [
    ...(recorded.playbook !== now.playbook ? ['the playbook'] : []),
    ...(recorded.inventory !== now.inventory ? ['the inventory'] : []),
  ];
}
