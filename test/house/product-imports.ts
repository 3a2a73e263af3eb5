// The imports of the product's files (runner/, tasks/, playbooks/, lab/) as edges, read by dpdm as
// import-circles.test.ts reads them (static, type-only and dynamic imports alike, `./x.js` resolved to
// `x.ts`), and the package's public entries from package.json's "exports". Shared by the house tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDependencyTree } from 'dpdm';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ImportEdge {
  /** The importing file, relative to the root. */
  readonly file: string;
  /** As written: `../runner/index.js`, `node:fs`. */
  readonly request: string;
  /** The file it resolves to, relative to the root (a builtin: the request), or null when unresolved. */
  readonly target: string | null;
}

export async function productImports(dirs: readonly string[] = ['runner', 'tasks', 'playbooks', 'lab']) {
  const tree = await parseDependencyTree(
    dirs.map((d) => `${d}/**/*.ts`),
    { context: root, cwd: root, transform: false, skipDynamicImports: false },
  );
  return Object.entries(tree).flatMap(([file, deps]) =>
    (deps ?? []).map((d): ImportEdge => ({ file, request: d.request, target: d.id })),
  );
}

/**
 * The source files of the package's public entries: `"./linux": { "default": "./dist/tasks/linux/index.js" }`
 * is `tasks/linux/index.ts`; a wildcard entry (`./playbooks/*`) is its folder, `playbooks/`.
 */
export function publicEntries(packageJson: string = readFileSync(path.join(root, 'package.json'), 'utf8')): string[] {
  const exports = (JSON.parse(packageJson) as { exports: Record<string, string | { default?: string }> }).exports;
  return Object.values(exports)
    .map((e) => (typeof e === 'string' ? e : e.default))
    .filter((e): e is string => typeof e === 'string' && e.startsWith('./dist/'))
    .map((e) =>
      e
        .slice('./dist/'.length)
        .replace(/\*\.js$/, '')
        .replace(/\.js$/, '.ts'),
    );
}
