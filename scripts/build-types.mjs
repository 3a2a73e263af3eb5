#!/usr/bin/env node
// `npm run build` and `prepare`: the declarations (.d.ts) of what the package exports (`play`,
// `play/linux`, `play/windows`, `play/playbooks/*`: package.json's "exports"), written into dist/
// beside the compiled .js (tsconfig.build.json), so that a user's repository type-checks its playbooks
// against play without compiling play's sources with its own compiler options. A type error here
// does not stop the build (type checking is `npm run typecheck`'s job); it is counted in one line.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function tscBin() {
  try {
    const pkg = createRequire(join(root, 'package.json')).resolve('typescript/package.json');
    return join(dirname(pkg), 'bin', 'tsc');
  } catch {
    return undefined;
  }
}

const tsc = tscBin();
if (!tsc) {
  // An install without devDependencies: the JavaScript is built, the declarations are not.
  process.stderr.write('play: typescript is not installed: no declarations (.d.ts) written into dist/\n');
  process.exit(0);
}
const started = performance.now();
const run = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  cwd: root,
  encoding: 'utf8',
});
const ms = Math.round(performance.now() - started);
if (run.error || (run.status !== 0 && !/error TS\d+/.test(run.stdout))) {
  process.stderr.write(
    `play: tsc failed to write the declarations: ${run.error?.message ?? run.stderr ?? run.stdout}\n`,
  );
  process.exit(1);
}
const errors = (run.stdout.match(/error TS\d+/g) ?? []).length;
process.stderr.write(
  `play: declarations written into dist/ in ${ms} ms${errors ? ` (with ${errors} type errors: npm run typecheck shows them)` : ''}\n`,
);
