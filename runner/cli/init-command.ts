// `play init [DIR]`: a repository of one's own playbooks (docs/own-repository.md): package.json (play
// as a dependency, TypeScript, tsx and ava as play pins them), tsconfig.json, an inventory with
// group_vars, an example playbook using play/linux, and an ava test of its plan. The files other than
// package.json are templates/init/ as they are. It writes only new files: any that exists is refused
// before anything is written (exit 64), so it never overwrites a user's work.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/play-root.js';
import { quoteSh } from '../core/quote.js';

export interface InitOptions {
  /** Where to write (default: the current directory). */
  dir?: string;
  /** The dependency spec of play: a git URL, a tarball, a path, a version (default: this play's folder). */
  play?: string;
  cwd?: string;
}

const root = PACKAGE_ROOT;
const TEMPLATES = join(root, 'templates/init');
/** npm drops files named .gitignore from packages: the template is `gitignore`. */
const RENAMED: Readonly<Record<string, string>> = { gitignore: '.gitignore' };

export function initCommand(options: InitOptions, out: NodeJS.WritableStream): number {
  const cwd = options.cwd ?? process.cwd();
  const dir = resolve(cwd, options.dir ?? '.');
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new UsageError(`init: ${dir} is not a directory`);
  const spec = playSpec(options.play, cwd);
  const files = new Map([['package.json', packageJson(dir, spec)], ...templateFiles()]);
  const taken = [...files.keys()].filter((f) => existsSync(join(dir, f)));
  if (taken.length > 0) {
    throw new UsageError(
      `init: ${join(dir, taken[0]!)} already exists${taken.length > 1 ? ` (and ${taken.slice(1).join(', ')})` : ''}; ` +
        'play init writes only new files: init an empty folder, or move these away',
    );
  }
  for (const [file, text] of files) write(join(dir, file), text);
  out.write(nextSteps(dir, cwd, spec, [...files.keys()]));
  return 0;
}

/** A new file (never over one: `wx`); a folder that cannot be written is one message, not a trace. */
function write(path: string, text: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, { flag: 'wx' });
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (!err.code) throw e;
    throw new UsageError(`init: cannot write ${path}: ${err.code === 'EEXIST' ? 'it already exists' : err.message}`);
  }
}

/** What package.json names play by, under the key `play` (the name the playbooks import): by default
 *  the registry's package as an npm alias (`npm:play-runner@^0.1.0`: npm's `play` is another package),
 *  or, when this play is a checkout (its sources are here), that folder; with --play, a local path (a
 *  folder or a tarball) as an absolute `file:` spec, a version, range or tag as that alias, anything
 *  else (git URL, `github:o/r`, a tarball URL, `npm:...`) as given, for npm to read. */
export function playSpec(spec: string | undefined, cwd: string): string {
  if (spec === undefined) return existsSync(join(root, 'runner/index.ts')) ? `file:${root}` : registrySpec();
  const text = spec.trim();
  if (text === '')
    throw new UsageError('init: --play needs a package spec (a git URL, a tarball or a path to a play folder)');
  const local = /^(?:\.{1,2}(?:\/|$)|\/|~\/)/.test(text) || (/\.(?:tgz|tar\.gz)$/.test(text) && !text.includes(':'));
  if (!local) return /[:/]/.test(text) ? text : registrySpec(text);
  const path = resolve(cwd, text.replace(/^~(?=\/)/, homedir()));
  if (!existsSync(path)) throw new UsageError(`init: --play ${text}: ${path} does not exist`);
  return `file:${path}`;
}

/** The registry's play as an npm alias: `npm:play-runner@^0.1.0` (this play's name and version). */
function registrySpec(range?: string): string {
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  return `npm:${own.name}@${range ?? `^${own.version}`}`;
}

function packageJson(dir: string, spec: string): string {
  const own = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const pin = (name: string) => own.devDependencies[name] ?? own.dependencies[name]!;
  const pkg = {
    name: packageName(dir),
    version: '0.1.0',
    private: true,
    description: 'Playbooks run with play',
    type: 'module',
    scripts: { test: 'ava', typecheck: 'tsc --noEmit' },
    // As play's own tests: tsx's hooks reach ava's test processes, not its worker threads.
    ava: {
      extensions: { ts: 'module' },
      nodeArguments: ['--import=tsx'],
      workerThreads: false,
      files: ['test/**/*.test.ts'],
      // ava's 10 s default: a test process that loads play through tsx on a busy machine can take longer to start.
      timeout: '60s',
    },
    dependencies: { play: spec },
    devDependencies: Object.fromEntries(['@types/node', 'ava', 'tsx', 'typescript'].map((n) => [n, pin(n)])),
  };
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/** The folder's name as npm accepts it (lower case, no spaces), else a fixed one. */
function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '');
  return name || 'playbooks';
}

/** templates/init/, as [path in the new repository, text]. */
function templateFiles(from = TEMPLATES, prefix = ''): [string, string][] {
  return readdirSync(from, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((entry): [string, string][] => {
      const path = join(from, entry.name);
      const name = prefix + (RENAMED[entry.name] ?? entry.name);
      return entry.isDirectory() ? templateFiles(path, `${name}/`) : [[name, readFileSync(path, 'utf8')]];
    });
}

function nextSteps(dir: string, cwd: string, spec: string, files: readonly string[]): string {
  const where = relative(cwd, dir);
  const lines = [
    `play init: wrote ${files.join(', ')} in ${dir}`,
    '',
    'Next:',
    ...(where ? [`  cd ${quoteSh(where.startsWith('..') ? dir : where)}`] : []),
    `  npm install                                   # play (${spec}), TypeScript, tsx, ava`,
    "  npm test                                      # the example playbook's plan, without any host",
    '  npx tsc --noEmit                              # type-check the playbooks (a wrong task id is an error)',
    '  # put your hosts in inventory/hosts.yml (and their vars in inventory/group_vars/), then:',
    '  npx play example -i inventory --check --diff  # what would change; without --check it applies',
    '',
  ];
  return lines.join('\n');
}
