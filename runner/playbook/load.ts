// Finding and loading playbook modules: a name (`bench`) looks in ./playbooks, then in the playbooks
// shipped with play; a path is taken as it is. Shipped playbooks run compiled (dist/playbooks/NAME.js);
// any other playbook (.ts, .mts, .js, .mjs, in any folder) is loaded through the hooks of
// load-hooks.ts, registered when the first such playbook is loaded; TypeScript (esbuild) only then.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { register as registerHooks } from 'node:module';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError, PlayError, UsageError } from '../core/errors.js';
import { CODE_ROOT, PACKAGE_ROOT, RUNNING_COMPILED } from '../core/play-root.js';
import type { Playbook } from './define.js';
import type { HookData } from './load-hooks.js';

const base = CODE_ROOT;
const compiled = RUNNING_COMPILED;
const checkout = PACKAGE_ROOT;
const shipped = resolve(base, 'playbooks');
const shippedSources = resolve(checkout, 'playbooks');
const TS_FILE = /\.[cm]?ts$/;

/** Where names are looked up, in order: the cwd's ./playbooks, the shipped ones (compiled), and, when
 *  compiled, the checkout's playbooks/ sources (a playbook added there and not built yet). */
export function playbookDirs(cwd = process.cwd()): string[] {
  const local = resolve(cwd, 'playbooks');
  // In the checkout itself ./playbooks holds the shipped playbooks' sources: the compiled ones first.
  return [...new Set(local === shippedSources ? [shipped, shippedSources] : [local, shipped, shippedSources])];
}

export function resolvePlaybook(nameOrPath: string, cwd = process.cwd()): string {
  if (/[\\/]|\.[cm]?[jt]s$/.test(nameOrPath)) {
    const p = resolve(cwd, nameOrPath);
    if (!existsSync(p)) throw new UsageError(`playbook file ${p} does not exist`);
    return p;
  }
  for (const dir of playbookDirs(cwd)) {
    for (const ext of ['.ts', '.mts', '.js', '.mjs']) {
      const p = resolve(dir, nameOrPath + ext);
      if (existsSync(p)) return p;
    }
  }
  const known = listPlaybookFiles(cwd).map(playbookName);
  throw new UsageError(`no playbook named '${nameOrPath}' (known: ${known.join(', ') || 'none'}); see 'play list'`);
}

export const playbookName = (file: string): string => basename(file).replace(/\.[^.]+$/, '');

export function listPlaybookFiles(cwd = process.cwd()): string[] {
  const seen = new Map<string, string>();
  for (const dir of playbookDirs(cwd)) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      const m = /^(.+)\.([cm]?[jt]s)$/.exec(f);
      if (m && !/\.d\.[cm]?ts$/.test(f) && !seen.has(m[1]!)) seen.set(m[1]!, resolve(dir, f));
    }
  }
  return [...seen.values()].sort((a, b) => playbookName(a).localeCompare(playbookName(b)));
}

export async function loadPlaybook(file: string): Promise<Playbook> {
  let mod: { default?: unknown };
  try {
    if (compiled && !file.startsWith(base + sep)) enableHooks();
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    throw (await syntaxErrorAt(file, e)) ?? loadError(file, e);
  }
  const pb = mod.default as Playbook | undefined;
  if (!pb || typeof pb !== 'object' || typeof pb.name !== 'string' || !pb.tasks || typeof pb.tasks !== 'object') {
    throw new InputError(`${file}: the default export must be definePlaybook({ name, description, tasks })`);
  }
  return pb;
}

/** A playbook that cannot be loaded is the playbook's problem (65): one short message, no trace. */
function loadError(file: string, e: unknown): PlayError {
  if (e instanceof PlayError) return new InputError(`${file}: ${e.message}`);
  const err = e instanceof Error ? e : new Error(String(e));
  // esbuild (load-hooks.ts) reports a syntax error as "Transform failed with 1 error:\nFILE:L:C: ERROR: msg".
  // Its column counts from 0; editors (and this message) count from 1.
  const syntax = /^(\/.+?:\d+):(\d+): (?:ERROR: )?(.+)$/m.exec(err.message);
  if (syntax && /Transform failed/.test(err.message))
    return new InputError(`${syntax[1]}:${Number(syntax[2]) + 1}: ${syntax[3]}`);
  if (err instanceof SyntaxError) return new InputError(`${file}: syntax error: ${err.message.split('\n')[0]}`);
  const first = err.message.split('\n').find((l) => l.trim()) ?? err.name;
  const where = thrownAt(err, file);
  return new InputError(
    `${file}: cannot load playbook: ${first}${where && !first.includes(where) ? ` (at ${where})` : ''}`,
  );
}

/** Node does not tell where a JavaScript syntax error is (only an uncaught one's printout shows it):
 *  esbuild, parsing the playbook file again, does. Only on this error path. */
async function syntaxErrorAt(file: string, e: unknown): Promise<InputError | undefined> {
  if (!(e instanceof SyntaxError) || TS_FILE.test(file)) return undefined;
  try {
    const { transform } = await import('esbuild');
    await transform(readFileSync(file, 'utf8'), { loader: 'js', format: 'esm', sourcefile: file, logLevel: 'silent' });
  } catch (parse) {
    const first = (
      parse as { errors?: { text: string; location?: { file: string; line: number; column: number } | null }[] }
    ).errors?.[0];
    if (first?.location)
      return new InputError(
        `${first.location.file}:${first.location.line}:${first.location.column + 1}: ${first.text}`,
      );
  }
  return undefined;
}

/** The first frame of the playbook's own files in `err`'s stack, as path:line:column (relative when close). */
function thrownAt(err: Error, file: string): string | undefined {
  const dir = dirname(file);
  for (const m of (err.stack ?? '').matchAll(/(?:file:\/\/)?(\/[^\s():]+):(\d+):(\d+)/g)) {
    const path = m[1]!;
    if (path.startsWith(dir + '/') && !path.includes('/node_modules/'))
      return `${relative(process.cwd(), path) || path}:${m[2]}:${m[3]}`;
  }
  return undefined;
}

let hooked = false;

/** Registers load-hooks.ts once (only the CLI, compiled, gets here: tests run the sources under tsx). */
function enableHooks(): void {
  if (hooked) return;
  hooked = true;
  // A user's playbook, compiled as it loads: its errors name its own TypeScript lines (play's own
  // modules, loaded before, keep their source maps unread unless PLAY_SOURCE_MAPS=1: bin/play.mjs).
  process.setSourceMapsEnabled(true);
  const data: HookData = {
    self: pathToFileURL(resolve(checkout, 'package.json')).href,
    sources: pathToFileURL(checkout).href + '/',
    dist: pathToFileURL(base).href + '/',
  };
  registerHooks('./load-hooks.js', { parentURL: import.meta.url, data });
}
