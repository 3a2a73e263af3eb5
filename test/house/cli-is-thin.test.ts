// The command line is thin: runner/cli reads flags, builds the options, calls one function of
// runner/rolling, runner/drift, runner/run, ... and maps the result to an exit code and output. So its
// files stay short, and nothing outside it imports it (the logic below the command line must not lean
// on the command line: it would come back as an import circle, and could not be used without yargs).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { importsIntoCli, oversized } from './house-rules.js';
import { type ImportEdge, productImports, root } from './product-imports.js';

const MAX_LINES = 250;
/** Files allowed over the limit: none. */
const CEILINGS: Readonly<Record<string, number>> = {};
/** Imports into runner/cli from outside allowed: none. */
const ALLOWED_INTO_CLI = new Set<string>();

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

test(`no file of runner/cli is over ${MAX_LINES} lines`, (t) => {
  const dir = path.join(root, 'runner/cli');
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => ({ file: `runner/cli/${f}`, lines: lineCount(readFileSync(path.join(dir, f), 'utf8')) }));
  t.true(files.length > 20, 'the folder was read');
  t.deepEqual(oversized(files, MAX_LINES, CEILINGS), []);
});

test('nothing outside runner/cli imports it', async (t) => {
  const edges = await productImports();
  t.true(edges.length > 1000, 'the product files were read');
  t.deepEqual(importsIntoCli(edges, ALLOWED_INTO_CLI), []);
});

test('the rules catch a long file and an import into runner/cli, static or dynamic', (t) => {
  t.deepEqual(
    oversized(
      [
        { file: 'runner/cli/a.ts', lines: 250 },
        { file: 'runner/cli/b.ts', lines: 251 },
        { file: 'runner/cli/main.ts', lines: 331 },
        { file: 'runner/cli/c.ts', lines: 400 },
      ],
      250,
      { 'runner/cli/main.ts': 331, 'runner/cli/c.ts': 399 },
    ),
    ['runner/cli/b.ts: 251 lines', 'runner/cli/c.ts: 400 lines'],
  );
  const edges: ImportEdge[] = [
    { file: 'runner/rolling/run/apply.ts', request: '../../cli/run-args.js', target: 'runner/cli/run-args.ts' },
    {
      file: 'runner/drift/run/loop.ts',
      request: '../../cli/inventory-path.js',
      target: 'runner/cli/inventory-path.ts',
    },
    { file: 'runner/cli/main.ts', request: './run-cli.js', target: 'runner/cli/run-cli.ts' },
    {
      file: 'runner/cli/run-command.ts',
      request: '../rolling/run/rolling-run.js',
      target: 'runner/rolling/run/rolling-run.ts',
    },
    { file: 'runner/vault/passwords.ts', request: '../cli/prompt.js', target: 'runner/cli/prompt.ts' },
  ];
  t.deepEqual(importsIntoCli(edges, ALLOWED_INTO_CLI), [
    'runner/rolling/run/apply.ts -> runner/cli/run-args.ts',
    'runner/drift/run/loop.ts -> runner/cli/inventory-path.ts',
    'runner/vault/passwords.ts -> runner/cli/prompt.ts',
  ]);
  t.deepEqual(importsIntoCli(edges, new Set(['runner/vault/passwords.ts -> runner/cli/prompt.ts'])), [
    'runner/rolling/run/apply.ts -> runner/cli/run-args.ts',
    'runner/drift/run/loop.ts -> runner/cli/inventory-path.ts',
  ]);
});
