// `play --help` teaches (runner/cli/help-text.ts): examples, the exit codes and the environment, seen
// as a user types it; the variable list checked against every `env.NAME` the sources read, and the
// exit codes against README's table, so that neither can go stale. Needs dist/ (node scripts/build.mjs).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { documentedVariables, DRIFT_EXAMPLES, EXAMPLES, EXIT_CODES } from '../../runner/cli/help-text.js';
import { play, projectRoot } from '../helpers/play.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every variable the CLI's code reads: `process.env.NAME`, `env.NAME`, `env['NAME']`, and libpq's PG* table. */
function variablesRead(): string[] {
  const names = new Set<string>();
  for (const file of [...sources(join(projectRoot, 'runner')), ...sources(join(projectRoot, 'lab'))]) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)/g)) names.add(m[1]!);
    if (file.endsWith('postgres/target.ts')) for (const m of text.matchAll(/'(PG[A-Z_]+)'/g)) names.add(m[1]!);
  }
  return [...names].sort();
}

test('every environment variable the sources read is documented in --help', (t) => {
  const read = variablesRead();
  t.true(read.includes('PLAY_INVENTORY') && read.includes('PGPASSWORD'), read.join(' '));
  const documented = new Set(documentedVariables());
  t.deepEqual(
    read.filter((n) => !documented.has(n)),
    [],
    'add a line to ENVIRONMENT in runner/cli/help-text.ts',
  );
});

test("the exit codes are README's table", (t) => {
  const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('### Exit codes'));
  const codes = [...table.slice(0, table.indexOf('\n\n', table.indexOf('| code |'))).matchAll(/^\| (\d+) \|/gm)];
  t.deepEqual(
    EXIT_CODES.map(([c]) => c),
    codes.map((m) => Number(m[1])).sort((a, b) => a - b),
  );
});

test('play --help: examples, exit codes and environment, as a user reads them', async (t) => {
  const r = await play(['--help']);
  t.is(r.code, 0, r.stderr);
  const out = r.stdout.replace(/\s+/g, ' ');
  t.true(r.stdout.includes('\nExamples:\n'));
  for (const [command] of EXAMPLES) t.true(out.includes(command), command);
  t.true(r.stdout.includes('\nExit codes:\n'));
  for (const [code] of EXIT_CODES) t.regex(r.stdout, new RegExp(`^ {2}${code} +\\S`, 'm'), String(code));
  t.true(r.stdout.includes('\nEnvironment'));
  for (const name of documentedVariables()) t.true(out.includes(name), name);
});

test('play drift --help has its own examples and exit codes', async (t) => {
  const r = await play(['drift', '--help']);
  t.is(r.code, 0, r.stderr);
  const out = r.stdout.replace(/\s+/g, ' ');
  for (const [command] of DRIFT_EXAMPLES) t.true(out.includes(command), command);
  t.regex(r.stdout, /^ {2}4 +hosts unreachable, no drift on the others$/m);
});
