// What `play` loads before it touches a host: the heavy packages (ssh2, better-sqlite3, jsdiff, listr2,
// node-postgres) are imported where they are used, so `play --help` and a plain run's start do not pay
// for them. Seen as a user types the command (node bin/play.mjs, dist/), with a module hook recording
// every module resolved (ESM) and every CommonJS module in require's cache at exit. Needs dist/
// (node scripts/build.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { projectRoot } from '../helpers/play.js';

const WATCHED = ['better-sqlite3', 'diff', 'listr2', 'pg', 'ssh2'];

/** Runs in Node's module-hooks thread: appends each resolved URL to the file it is given. */
const HOOKS = `import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(file, r.url + '\\n');
  return r;
}`;

/** Preloaded with --import: registers HOOKS, and at exit adds the CommonJS modules that were required. */
const PRELOAD = `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
const file = process.env.PLAY_TEST_LOADS;
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}), { data: { file } });
process.on('exit', () => {
  const cjs = Object.keys(createRequire(import.meta.url).cache).map((p) => pathToFileURL(p).href);
  appendFileSync(file, cjs.join('\\n') + '\\n');
});`;

/** The command's exit code and the watched packages it loaded, sorted. */
function watchedLoads(args: string[], cwd: string): [number | null, string[]] {
  const file = join(cwd, `loads-${args.join('-').replace(/\W+/g, '_')}.txt`);
  writeFileSync(file, '');
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(PRELOAD)}`, join(projectRoot, 'bin/play.mjs'), ...args],
    { cwd, encoding: 'utf8', env: { ...process.env, PLAY_TEST_LOADS: file, PLAY_STATE: join(cwd, 'state.db') } },
  );
  const packages = new Set<string>();
  for (const url of readFileSync(file, 'utf8').split('\n')) {
    const name = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
    if (name && WATCHED.includes(name)) packages.add(name);
  }
  return [r.status, [...packages].sort()];
}

test('the heavy packages each command loads before touching a host', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-loads-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const inventory = join(dir, 'inventory.yaml');
  writeFileSync(
    inventory,
    'linux:\n  hosts:\n    gw1: { ansible_host: 192.0.2.1 }\n    gw2: { ansible_host: 192.0.2.2 }\n',
  );
  const table: [string[], number, string[]][] = [
    [['--help'], 0, []],
    [['drift', '--help'], 0, []],
    [['bench', '--help'], 0, []],
    // The playbook's public API (runner/index.ts) re-exports openRemote, which connects: ssh2.
    [['bench', '--list-tasks', '-i', inventory], 0, ['ssh2']],
    [['bench', '--list-hosts', '-i', inventory], 0, ['ssh2']],
    // The control: opening the state store (there is none: exit 64) loads better-sqlite3, and the recording sees it.
    [['state', 'check'], 64, ['better-sqlite3']],
  ];
  t.deepEqual(
    table.map(([args]) => [args, ...watchedLoads(args, dir)]),
    table,
  );
});
