// `play init` in process: what it writes, that one existing file stops it before it writes anything
// (exit 64, naming the file), and how --play becomes the dependency spec. The repository it writes is
// installed, type-checked, tested and run end to end in test/e2e/own-repo.test.ts.
import test from 'ava';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { UsageError } from '../../runner/core/errors.js';
import { initCommand, playSpec } from '../../runner/cli/init-command.js';
import { projectRoot } from '../helpers/play.js';

const dirs: string[] = [];
test.after.always('remove the folders', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tmp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-init-'));
  dirs.push(dir);
  return dir;
}

function init(options: Parameters<typeof initCommand>[0]): { code: number; out: string } {
  const out = new PassThrough();
  const code = initCommand(options, out);
  return { code, out: String(out.read() ?? '') };
}

test('writes the scaffold into a new folder, package.json pinning what play pins', (t) => {
  const cwd = tmp();
  const { code, out } = init({ dir: 'My Infra', cwd });
  t.is(code, 0);
  const repo = join(cwd, 'My Infra');
  t.deepEqual(readdirSync(repo, { recursive: true }).map(String).sort(), [
    '.gitignore',
    'inventory',
    'inventory/group_vars',
    'inventory/group_vars/all.yml',
    'inventory/group_vars/windows.yml',
    'inventory/hosts.yml',
    'package.json',
    'playbooks',
    'playbooks/example.ts',
    'playbooks/lib',
    'playbooks/lib/registry-value.ts',
    'test',
    'test/example.test.ts',
    'test/registry-value.test.ts',
    'tsconfig.json',
  ]);
  const own = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
  t.like(pkg, {
    name: 'my-infra',
    private: true,
    type: 'module',
    dependencies: { play: `file:${projectRoot.replace(/\/$/, '')}` },
    devDependencies: {
      typescript: own.devDependencies.typescript,
      ava: own.devDependencies.ava,
      '@types/node': own.devDependencies['@types/node'],
      tsx: own.dependencies.tsx,
    },
  });
  t.regex(out, /\n {2}cd 'My Infra'\n {2}npm install /);
});

test('one existing file: nothing is written, and the message names it (exit 64)', (t) => {
  const repo = tmp();
  mkdirSync(join(repo, 'inventory'));
  writeFileSync(join(repo, 'inventory/hosts.yml'), 'mine\n');
  const e = t.throws(() => init({ dir: repo }), { instanceOf: UsageError });
  t.is(e.exitCode, 64);
  t.is(
    e.message,
    `init: ${repo}/inventory/hosts.yml already exists; play init writes only new files: init an empty folder, or move these away`,
  );
  t.deepEqual(readdirSync(repo, { recursive: true }).map(String).sort(), ['inventory', 'inventory/hosts.yml']);
  t.is(readFileSync(join(repo, 'inventory/hosts.yml'), 'utf8'), 'mine\n');
});

test('a file where the folder should be is refused (exit 64)', (t) => {
  const cwd = tmp();
  writeFileSync(join(cwd, 'infra'), '');
  t.throws(() => init({ dir: 'infra', cwd }), {
    instanceOf: UsageError,
    message: `init: ${cwd}/infra is not a directory`,
  });
  t.false(existsSync(join(cwd, 'package.json')));
});

test('--play: local paths become absolute file: specs and must exist; URLs and versions are kept', (t) => {
  const cwd = tmp();
  writeFileSync(join(cwd, 'play-0.1.0.tgz'), '');
  t.is(playSpec('./play-0.1.0.tgz', cwd), `file:${cwd}/play-0.1.0.tgz`);
  t.is(playSpec('play-0.1.0.tgz', cwd), `file:${cwd}/play-0.1.0.tgz`);
  t.is(playSpec('..', cwd), `file:${join(cwd, '..')}`);
  t.is(playSpec('git+https://git.example/org/play.git#v0.1.0', cwd), 'git+https://git.example/org/play.git#v0.1.0');
  t.is(playSpec('github:org/play', cwd), 'github:org/play');
  t.is(playSpec('https://files.example/play-0.1.0.tgz', cwd), 'https://files.example/play-0.1.0.tgz');
  t.throws(() => playSpec('./nowhere', cwd), {
    instanceOf: UsageError,
    message: `init: --play ./nowhere: ${cwd}/nowhere does not exist`,
  });
  t.throws(() => playSpec(' ', cwd), { instanceOf: UsageError, message: /--play needs a package spec/ });
});
