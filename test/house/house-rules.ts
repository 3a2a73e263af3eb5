// The house rules over the product's files, pure: each returns what breaks it, so a test compares the
// answer with [] and a table shows that the rule catches what it should.
import type { ImportEdge } from './product-imports.js';

/** Files longer than the limit (or than their ceiling), as `file: N lines`. */
export function oversized(
  files: readonly { file: string; lines: number }[],
  max: number,
  ceilings: Readonly<Record<string, number>>,
): string[] {
  return files.filter((f) => f.lines > (ceilings[f.file] ?? max)).map((f) => `${f.file}: ${f.lines} lines`);
}

/** Imports of runner/cli from files outside it, as `file -> target`, less the allowed ones. */
export function importsIntoCli(edges: readonly ImportEdge[], allowed: ReadonlySet<string>): string[] {
  return edges
    .filter((e) => !e.file.startsWith('runner/cli/') && e.target?.startsWith('runner/cli/'))
    .map((e) => `${e.file} -> ${e.target}`)
    .filter((edge) => !allowed.has(edge));
}

/** Imports of playbooks/ files that a user's playbook could not make, as `file: request`. */
export function nonPublicImports(edges: readonly ImportEdge[], entries: readonly string[]): string[] {
  const allowed = (target: string) =>
    target.startsWith('node:') || target.startsWith('playbooks/') || entries.includes(target);
  return edges
    .filter((e) => e.file.startsWith('playbooks/') && (e.target === null || !allowed(e.target)))
    .map((e) => `${e.file}: ${e.request}`);
}
