// Finding and loading playbook modules: a name (`bench`) looks in ./playbooks then in the
// playbooks shipped with play; a path is taken as it is.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InputError, UsageError } from '../core/errors.js';
import type { Playbook } from './define.js';

const shipped = resolve(dirname(fileURLToPath(import.meta.url)), '../../playbooks');

export function playbookDirs(cwd = process.cwd()): string[] {
  const local = resolve(cwd, 'playbooks');
  return local === shipped ? [shipped] : [local, shipped];
}

export function resolvePlaybook(nameOrPath: string, cwd = process.cwd()): string {
  if (/[\\/]|\.[cm]?[jt]s$/.test(nameOrPath)) {
    const p = resolve(cwd, nameOrPath);
    if (!existsSync(p)) throw new UsageError(`playbook file ${p} does not exist`);
    return p;
  }
  for (const dir of playbookDirs(cwd)) {
    for (const ext of ['.ts', '.js', '.mjs']) {
      const p = resolve(dir, nameOrPath + ext);
      if (existsSync(p)) return p;
    }
  }
  const known = listPlaybookFiles(cwd).map((f) => basename(f).replace(/\.[^.]+$/, ''));
  throw new UsageError(`no playbook named '${nameOrPath}' (known: ${known.join(', ') || 'none'}); see 'play list'`);
}

export function listPlaybookFiles(cwd = process.cwd()): string[] {
  const seen = new Map<string, string>();
  for (const dir of playbookDirs(cwd)) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      const m = /^(.+)\.(ts|js|mjs)$/.exec(f);
      if (m && !f.endsWith('.d.ts') && !seen.has(m[1]!)) seen.set(m[1]!, resolve(dir, f));
    }
  }
  return [...seen.values()];
}

export async function loadPlaybook(file: string): Promise<Playbook> {
  let mod: { default?: unknown };
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (e) {
    throw new InputError(`${file}: cannot load playbook: ${(e as Error).message}`);
  }
  const pb = mod.default as Playbook | undefined;
  if (!pb || typeof pb !== 'object' || typeof pb.name !== 'string' || !pb.tasks || typeof pb.tasks !== 'object') {
    throw new InputError(`${file}: the default export must be definePlaybook({ name, description, tasks })`);
  }
  return pb;
}
