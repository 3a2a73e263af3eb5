// The CLI table: rows of (argv, files, expected exit code, message) driven through the real CLI
// (`node bin/play.mjs`, running dist/, which `pretest` builds). Each row's test checks the documented exit
// code and one short message naming the culprit, never a stack trace. Several test files hold rows
// (errors by theme); they all run through this one function.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { projectRoot } from './play.js';

export interface CliRow {
  argv: string[];
  /** Files to create in the row's temporary directory (the cwd); `ROOT` stands for the checkout. */
  files?: Record<string, string>;
  setup?: (dir: string) => void;
  /** Extra environment for the command. */
  env?: NodeJS.ProcessEnv;
  code: number;
  message: RegExp;
}

const PLAY = join(projectRoot, 'bin/play.mjs');

/** An inventory of one host that nothing connects to (port 9): for rows that fail before any host is touched. */
export const ONE_HOST_INVENTORY =
  'all:\n  children:\n    linux:\n      hosts:\n        a: { ansible_host: 127.0.0.1, ansible_port: 9 }\n';

/** A playbook module's text importing play from the checkout (`ROOT`), followed by `body`. */
export const playbookText = (body: string) =>
  `import { definePlaybook } from 'ROOT/runner/playbook/define.js';\nimport { directory } from 'ROOT/tasks/linux/index.js';\n${body}\n`;

/** A valid playbook of one directory step on the linux group. */
export const OK_PLAYBOOK = playbookText(
  `export default definePlaybook({ name: 'ok', description: 'x', tasks: { d: { on: 'linux', step: directory({ path: '/srv/play-cli-errors' }) } } });`,
);

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function play(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return new Promise((resolveP, reject) => {
    const child = spawn(process.execPath, [PLAY, ...argv], {
      cwd,
      env: { ...process.env, PLAY_INVENTORY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolveP({ code, stdout, stderr }));
  });
}

function workDir(row: CliRow): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-cli-errors-'));
  for (const [name, text] of Object.entries(row.files ?? {})) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text.replaceAll('ROOT', projectRoot));
  }
  row.setup?.(dir);
  return dir;
}

const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

/** One ava test per row. */
export function cliTable(rows: Record<string, CliRow>): void {
  for (const [title, row] of Object.entries(rows)) {
    test(`${title}: exit ${row.code}, one message`, async (t) => {
      const dir = workDir(row);
      t.teardown(() => rmSync(dir, { recursive: true, force: true }));
      const r = await play(row.argv, dir, row.env);
      const shown = `play ${row.argv.join(' ')}\n${r.stderr}`;
      t.is(r.code, row.code, shown);
      t.regex(r.stderr, row.message, shown);
      t.regex(r.stderr, /^play: /, shown);
      t.notRegex(r.stderr, STACK_FRAME, shown);
      t.false(r.stderr.includes('internal error'), shown);
      t.true(r.stderr.trimEnd().split('\n').length <= 3, shown);
    });
  }
}
