// Node module hooks for playbooks that are not play's own compiled ones (a user's repository, a test
// fixture): registered by load.ts when the CLI (compiled) loads such a playbook; they run in Node's
// loader thread, for everything imported from then on.
// - `play` and `play/...` resolve to the package of the CLI that runs, whatever copy of play (or
//   none) the playbook's folder holds, and a checkout's runner|tasks|playbooks|lab sources to its
//   dist/: one copy of every class (`instanceof InputError`, Secret) and every registry, not two.
//   The package is published as `play-runner` (npm's `play` is another package) and a repository
//   depends on it under the alias `play`: both names resolve, through the package's own name.
// - TypeScript (.ts, .mts) is transpiled by esbuild into an ES module whatever the folder's package
//   type: tsx made a .ts in a folder without "type": "module" CommonJS, whose require() of the
//   playbook's other modules failed ("Cannot require() ES Module ... in a cycle").
// - `./x.js` finds `./x.ts` when there is no x.js (TypeScript's NodeNext convention).
// - A .js file with import/export outside node_modules is an ES module even where the folder does
//   not say "type": "module" (Node would guess so too, with a warning on every run).
import { readFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import type { InitializeHook, LoadHook, ResolveHook } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';

export interface HookData {
  /** file URL of the CLI's package.json: `play` resolves as if imported from there (self-reference). */
  self: string;
  /** file URL of the checkout's root (with a trailing slash) and of its dist/. */
  sources: string;
  dist: string;
}

let data: HookData;
/** The package's own name (package.json at data.self): a self-reference resolves only by it. */
let ownName: string;

export const initialize: InitializeHook<HookData> = (d) => {
  data = d;
  ownName = (JSON.parse(readFileSync(fileURLToPath(d.self), 'utf8')) as { name: string }).name;
};

const PLAY = /^play(?:-runner)?(?=\/|$)/;
const SOURCE = /^((?:runner|tasks|playbooks|lab)\/.+)\.([cm]?)ts$/;

export const resolve: ResolveHook = async (specifier, context, next) => {
  if (PLAY.test(specifier)) return next(specifier.replace(PLAY, ownName), { ...context, parentURL: data.self });
  let r: Awaited<ReturnType<typeof next>>;
  try {
    r = await next(specifier, context);
  } catch (e) {
    const ts = typeScriptTwin(specifier);
    if (!ts || (e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw e;
    try {
      r = await next(ts, context);
    } catch {
      throw e;
    }
  }
  const url = r.url.split('?')[0]!;
  const m = url.startsWith(data.sources) ? SOURCE.exec(url.slice(data.sources.length)) : null;
  if (!m) return r;
  const target = `${data.dist}${m[1]}.${m[2]}js`;
  return existsSync(fileURLToPath(target)) ? { url: target, format: 'module', shortCircuit: true } : r;
};

/** `./x.js` -> `./x.ts`, `./x.mjs` -> `./x.mts`, for paths only (not package names). */
function typeScriptTwin(specifier: string): string | undefined {
  if (!/^(?:\.{1,2}\/|\/|file:)/.test(specifier)) return undefined;
  const m = /^(.+)\.(m?)js$/.exec(specifier);
  return m ? `${m[1]}.${m[2]}ts` : undefined;
}

export const load: LoadHook = async (url, context, next) => {
  if (!url.startsWith('file:')) return next(url, context);
  const path = fileURLToPath(url.split('?')[0]!);
  if (/\.m?ts$/.test(path)) return { format: 'module', source: await transpile(path), shortCircuit: true };
  if (path.endsWith('.js') && context.format !== 'module' && !path.includes('/node_modules/')) {
    const source = await readFile(path, 'utf8');
    if (!isCommonJs(source)) return { format: 'module', source, shortCircuit: true };
  }
  return next(url, context);
};

/** TypeScript to an ES module, with an inline source map so that stack traces name the .ts lines. A
 *  syntax error is esbuild's "Transform failed with 1 error: FILE:LINE:COL: ERROR: ..." (load.ts reads it). */
async function transpile(path: string): Promise<string> {
  const { transform } = await import('esbuild');
  const result = await transform(await readFile(path, 'utf8'), {
    loader: 'ts',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcefile: path,
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  return result.code;
}

/** Whether `source` compiles as a CommonJS module body (import/export, import.meta and top-level
 *  await do not), as Node's own guess for a file of unknown type goes. */
function isCommonJs(source: string): boolean {
  try {
    compileFunction(source.replace(/^#!.*/, ''), ['exports', 'require', 'module', '__filename', '__dirname']);
    return true;
  } catch {
    return false;
  }
}
