#!/usr/bin/env node
// `npm run build` (also run by `prepare` and `pretest`): transpiles every .ts file of runner/, tasks/,
// playbooks/ and lab/ into dist/, same tree, one .js (plus a source map) per file. No bundling:
// `import ... from './x.js'` already names the compiled file. The product (bin/play.mjs) runs dist/,
// so `play --help` does not pay for a TypeScript loader; type checking stays with `tsc --noEmit`.
// dist/lab/ serves this checkout's `play lab` (runner/cli/lab-location.ts); package.json's `files`
// leaves it, and every source map, out of the package.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['runner', 'tasks', 'playbooks', 'lab'];
// lab/ finds checkout sources through import.meta.url on purpose (the simulator's lab/windows/main.ts,
// run by `node --import tsx`; lab/cluster/api/main.ts, run on `lab up`; the project root). Its
// compiled files keep the source file's URL there, so the CLI (dist/) and the tests (sources) name
// the same files and agree on which simulator process is whose. The URL is computed from the compiled
// file's own (dist/lab/x.js -> lab/x.ts), not written in: an installed copy of play has its own path.
const KEEP_SOURCE_URL = ['lab'];
const SOURCE_URL = '__playSourceUrl';

function tsFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...tsFiles(p));
    // A step folder's tests (tasks/windows/steps/<step>/*.test.ts) live beside its code, not in dist/.
    else if (/\.[cm]?ts$/.test(entry.name) && !/\.(d|test)\.[cm]?ts$/.test(entry.name)) found.push(p);
  }
  return found;
}

/** The step folders' PowerShell files (tasks/windows/steps/<step>/*.ps1), copied beside the compiled .js
 *  that reads them (tasks/windows/steps/step-remote.ts); a simulator's .psm1 stays out of dist/. */
function copyPowerShell(dir, outDir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) return copyPowerShell(p, outDir);
    if (!entry.name.endsWith('.ps1')) return [];
    const out = join(outDir, relative(root, p));
    put(out, readFileSync(p, 'utf8'));
    return [out];
  });
}

/** Writes `text` to `file` unless it already holds it; via a temporary file and a rename, so that a
 *  `play` (or a second build: `pretest` runs per test run) never reads a half-written file. */
function put(file, text) {
  try {
    if (readFileSync(file, 'utf8') === text) return;
  } catch {
    /* absent */
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

async function compile(file, outDir) {
  const rel = relative(root, file);
  const out = join(outDir, rel.replace(/\.([cm]?)ts$/, '.$1js'));
  const keepUrl = KEEP_SOURCE_URL.some((d) => rel.startsWith(d + '/'));
  const result = await transform(readFileSync(file, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcefile: relative(dirname(out), file),
    sourcemap: 'external',
    define: keepUrl ? { 'import.meta.url': SOURCE_URL } : {},
  });
  const sourceUrl = keepUrl
    ? `const ${SOURCE_URL} = new URL(${JSON.stringify(relative(dirname(out), file))}, import.meta.url).href;\n`
    : '';
  put(out, `${sourceUrl}${result.code}//# sourceMappingURL=${basename(out)}.map\n`);
  // The source map's lines start one lower when that line comes first (';' is a generated line).
  put(`${out}.map`, sourceUrl ? result.map.replace('"mappings": "', '"mappings": ";') : result.map);
  return [out, `${out}.map`];
}

/** Files under `dir` that no build wrote (their source is gone): removed, so `play list` forgets them.
 *  A declaration (build-types.mjs) stays while its .js is built. */
function removeStale(dir, keep) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) removeStale(p, keep);
    else if (/\.d\.[cm]?ts$/.test(p) && keep.has(p.replace(/\.d\.([cm]?)ts$/, '.$1js'))) continue;
    else if (!keep.has(p) && !/\.tmp-\d+$/.test(p)) rmSync(p, { force: true });
  }
}

export async function build(outDir = join(root, 'dist')) {
  const started = performance.now();
  // In place, file by file (not rm -rf and rewrite): other `play` runs and tests may be using dist/.
  const files = SOURCE_DIRS.flatMap((d) => tsFiles(join(root, d)));
  const written = (await Promise.all(files.map((f) => compile(f, outDir)))).flat();
  written.push(...copyPowerShell(join(root, 'tasks'), outDir));
  const pkg = join(outDir, 'package.json');
  put(pkg, '{ "type": "module" }\n');
  removeStale(outDir, new Set([...written, pkg]));
  return { files: files.length, ms: Math.round(performance.now() - started) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { files, ms } = await build();
    process.stderr.write(`play: built ${files} files into dist/ in ${ms} ms\n`);
  } catch (e) {
    process.stderr.write(`play: build failed: ${e instanceof Error ? e.message : e}\n`);
    process.exitCode = 1;
  }
}
