#!/usr/bin/env node
// The `play` executable: runs the compiled CLI in dist/ (made by `npm run build`, which `npm ci`,
// `npm install` and `npm test` run). No TypeScript loader at start; only a playbook written in
// TypeScript brings one in, when it is loaded.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = new URL('../dist/runner/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  // npm ci --ignore-scripts skips the build.
  process.stderr.write(
    `play: ${fileURLToPath(new URL('../dist/', import.meta.url))} is missing: run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`,
  );
  process.exit(70);
}
// PLAY_SOURCE_MAPS=1: stack traces of internal errors name the TypeScript sources, not dist/. Opt-in, as
// Node then reads every module's source map at load, which costs each start tens of milliseconds.
if (process.env.PLAY_SOURCE_MAPS === '1') process.setSourceMapsEnabled(true);
let cli;
try {
  ({ cli } = await import(main.href));
} catch (e) {
  process.stderr.write(
    `play: internal error (a bug in play, or dist/ is out of date: run \`npm run build\`; else please report it with this trace, and PLAY_SOURCE_MAPS=1 in the environment gives its TypeScript positions): ${e?.stack ?? e}\n`,
  );
  process.exit(70);
}
await cli();
