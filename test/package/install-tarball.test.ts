// The package as a user gets it, end to end: `npm pack` (which runs `prepare`: the build and the
// declarations), what the tarball holds (no lab, no tests, the docs the README links to), an install
// of the tarball into an empty folder (better-sqlite3 compiles from source there, as .npmrc says),
// every import of the shipped code resolving inside the installed tree, the installed `play`
// (--version, list, `play lab` refused with how to get the lab), and `play init` from the installed
// copy: the dependency is the alias `play` -> `npm:play-runner@^VERSION`; pointed at the tarball,
// the repository installs, type-checks against the shipped declarations, runs its test, and runs
// playbooks importing 'play' and 'play-runner'; a shipped playbook runs on the lab host linux5 in
// check mode (read only: own-repo.test.ts changes that host, in its own scratch folder).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import test from 'ava';
import { parseDependencyTree } from 'dpdm';
import { ensureLab } from '../helpers/lab.js';
import { projectRoot } from '../helpers/play.js';

const HOST = 'linux5';
const INSTALL_MS = 20 * 60_000; // measured 8 min on this 2-core machine under a load of 25-40 (better-sqlite3's compile)

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(cwd: string, command: string, args: string[], timeoutMs = 120_000): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PLAY_INVENTORY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started }));
  });
}

/** npm as a user runs it in an empty folder: the project's build-from-source line (the prebuilt
 *  binaries' host is not reachable from here), a warm cache, no audit. */
function npmInstall(cwd: string, spec: string): Promise<Run> {
  writeFileSync(join(cwd, '.npmrc'), readFileSync(join(projectRoot, '.npmrc'), 'utf8'));
  return run(cwd, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', spec], INSTALL_MS);
}

let scratch: string;
let tarball: string;
let app: string;
let version: string;

test.before(() => {
  scratch = mkdtempSync(join(tmpdir(), 'play-package-'));
  app = join(scratch, 'app');
  mkdirSync(app);
  version = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version;
});

test.after.always('remove the scratch folder', () => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test.serial('npm pack: the program, its types, templates and docs; not the lab, tests or sources', async (t) => {
  t.timeout(10 * 60_000, 'npm pack runs prepare: the build, the declarations (tsc) and the optional .NET build');
  const pack = await run(projectRoot, 'npm', ['pack', '--json', '--pack-destination', scratch], 10 * 60_000);
  t.is(pack.code, 0, pack.stderr);
  const [info] = JSON.parse(pack.stdout) as {
    name: string;
    filename: string;
    size: number;
    unpackedSize: number;
    files: { path: string }[];
  }[];
  tarball = join(scratch, info!.filename);
  const files = info!.files.map((f) => f.path);
  t.log(
    `npm pack: ${pack.ms} ms; ${files.length} files, ${(info!.size / 1e6).toFixed(2)} MB packed, ${(info!.unpackedSize / 1e6).toFixed(2)} MB unpacked`,
  );
  t.is(info!.name, 'play-runner');
  const tops = [
    ...new Set(files.map((f) => (f.startsWith('dist/') ? f.split('/').slice(0, 2) : [f.split('/')[0]]).join('/'))),
  ];
  t.deepEqual(tops.sort(), [
    'README.md',
    'bin',
    'dist/package.json',
    'dist/playbooks',
    'dist/runner',
    'dist/tasks',
    'docs',
    'package.json',
    'templates',
  ]);
  t.deepEqual(
    // TypeScript only as declarations, or as the templates play init copies into a user's repository.
    files.filter((f) => f.endsWith('.map') || (/(?<!\.d)\.[cm]?ts$/.test(f) && !f.startsWith('templates/'))),
    [],
  );
  const needed = [
    'bin/play.mjs',
    'dist/runner/cli/main.js',
    'dist/runner/index.js',
    'dist/runner/index.d.ts',
    'dist/tasks/linux/index.d.ts',
    'dist/tasks/windows/index.d.ts',
    'dist/playbooks/bench.js',
    'dist/playbooks/tor-gateway.d.ts',
    'docs/README.md',
    'docs/own-repository.md',
    'templates/init/playbooks/example.ts',
  ];
  t.deepEqual(
    needed.filter((f) => !files.includes(f)),
    [],
  );
  t.deepEqual(brokenLinks(files), [], 'the Markdown links of the shipped README and docs name shipped files');
});

/** Relative Markdown links in the shipped .md files whose target (a file or a folder) is not shipped. */
function brokenLinks(files: readonly string[]): string[] {
  const shipped = new Set(files.flatMap((f) => f.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))));
  return files
    .filter((f) => f.endsWith('.md'))
    .flatMap((md) =>
      [...readFileSync(join(projectRoot, md), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .map((target) => posix.normalize(posix.join(posix.dirname(md), target)).replace(/\/$/, ''))
        .filter((target) => !shipped.has(target))
        .map((target) => `${md} -> ${target}`),
    );
}

test.serial('the tarball installs into an empty folder, and every import of its code resolves there', async (t) => {
  t.timeout(INSTALL_MS, 'npm install compiles better-sqlite3 from source');
  const install = await npmInstall(app, tarball);
  t.is(install.code, 0, install.stderr);
  t.log(`npm install TARBALL: ${install.ms} ms`);

  const installed = join(app, 'node_modules/play-runner');
  const tree = await parseDependencyTree(['bin/**/*.mjs', 'dist/**/*.js', 'dist/**/*.d.ts'], {
    context: installed,
    cwd: installed,
    transform: false,
    skipDynamicImports: false,
    exclude: /\/node_modules\/(?!play-runner\/)/,
  });
  t.true(Object.keys(tree).length > 400, 'the globs found the installed files');
  const unresolved = Object.values(tree)
    .flatMap((deps) => deps ?? [])
    .filter((d) => d.id === null)
    .map((d) => `${d.issuer} -> ${d.request}`);
  t.deepEqual(unresolved, []);
});

test.serial('the installed play: --version, its playbooks, and `play lab` says where the lab comes from', async (t) => {
  const play = join(app, 'node_modules/.bin/play');
  const v = await run(app, play, ['--version']);
  t.is(v.code, 0, v.stderr);
  t.regex(v.stdout, new RegExp(`^play ${version.replaceAll('.', '\\.')}\\n`));
  const list = await run(app, play, ['list']);
  t.is(list.code, 0, list.stderr);
  t.deepEqual(
    ['bench', 'hotfix-windows', 'onboard-windows', 'tor-gateway'].filter(
      (n) => !new RegExp(`^${n} `, 'm').test(list.stdout),
    ),
    [],
  );
  const lab = await run(app, play, ['lab', 'status']);
  t.is(lab.code, 64, lab.stderr);
  t.is(
    lab.stderr,
    "play: lab: the built-in lab is not installed with this copy of play: it comes with play's repository. " +
      'Clone the repository, run `npm ci && npm link` in it (README.md), and run `play lab` from that copy\n',
  );
});

test.serial(
  'play init from the installed copy: play as the alias npm:play-runner; pointed at the tarball it installs, type-checks, tests and runs',
  async (t) => {
    t.timeout(INSTALL_MS, 'npm install compiles better-sqlite3 from source again, and fetches TypeScript, tsx, ava');
    const home = join(scratch, 'home');
    mkdirSync(home);
    const init = await run(home, join(app, 'node_modules/.bin/play'), ['init', 'infra']);
    t.is(init.code, 0, init.stderr);
    const repo = join(home, 'infra');
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    t.deepEqual(pkg.dependencies, { play: `npm:play-runner@^${version}` });

    // play-runner is not on the registry yet: the same alias key, pointed at the tarball.
    const install = await npmInstall(repo, `play@file:${tarball}`);
    t.is(install.code, 0, install.stderr);
    t.log(`npm install in the repository: ${install.ms} ms`);
    t.is(JSON.parse(readFileSync(join(repo, 'node_modules/play/package.json'), 'utf8')).name, 'play-runner');

    const tsc = await run(repo, 'npx', ['tsc', '--noEmit']);
    t.is(tsc.code, 0, tsc.stdout);
    const own = await run(repo, 'npm', ['test']);
    t.is(own.code, 0, own.stdout + own.stderr);
    t.regex(own.stdout, /\d+ tests? passed/);

    // The CLI resolves both names for a playbook: 'play' (the alias) and 'play-runner' (the package).
    writeFileSync(
      join(repo, 'playbooks/by-name.ts'),
      [
        "import { definePlaybook } from 'play-runner';",
        "import { directory } from 'play-runner/linux';",
        "import { directory as sameDirectory } from 'play/linux';",
        '',
        'if (directory !== sameDirectory) throw new Error("two copies of play\'s steps");',
        'export default definePlaybook({',
        "  name: 'by-name',",
        "  description: 'imports play by its package name',",
        "  tasks: { dir: { on: 'web', step: () => directory({ path: '/srv/by-name' }) } },",
        '});',
        '',
      ].join('\n'),
    );
    const graph = await run(repo, 'npx', ['play', 'graph', 'by-name', '-i', 'inventory']);
    t.is(graph.code, 0, graph.stderr);
    t.regex(graph.stdout, /^by-name: imports play by its package name\n/);

    const lab = await ensureLab({ linux: 5 });
    const bench = await run(repo, 'npx', ['play', 'bench', '-i', lab.inventoryPath, '-l', HOST, '--check', '--json']);
    t.true([0, 2].includes(bench.code), bench.stderr);
    t.like(JSON.parse(bench.stdout), { playbook: 'bench', mode: 'check', summary: { failed: 0, unreachable: 0 } });
  },
);
