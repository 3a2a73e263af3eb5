// Running play against the lab from tests: in-process (runGraph over the real SSH pool) for step
// tests, and as the real CLI (`node bin/play.mjs`) for end-to-end tests, a schedule's loop included.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import type { AnyStep } from '../../runner/core/step.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { definePlaybook, type TaskContext } from '../../runner/playbook/define.js';
import type { RunReport, StepReport } from '../../runner/report/model.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';
import { ConnectionPool } from '../../runner/transport/pool.js';
import type { Lab } from './lab.js';
import { checkReportsWrittenBy } from './report-schema.js';
import { sleep } from './wait.js';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A fresh directory name for one test, so test files sharing the lab never collide. */
export function scratch(prefix = 'e2e'): string {
  return `/srv/${prefix}-${randomBytes(5).toString('hex')}`;
}

/** Runs one step on one lab host through the real runner and SSH; returns its report. */
export async function runStep(
  lab: Lab,
  host: string,
  make: AnyStep | ((ctx: TaskContext) => AnyStep),
  mode: 'apply' | 'check' = 'apply',
): Promise<{ step: StepReport; report: RunReport }> {
  const inventory = loadInventory(lab.inventoryPath);
  const pb = definePlaybook({ name: 'step', description: '', tasks: { step: { on: host, step: make } } });
  const graph = compileGraph(pb, inventory);
  const pool = new ConnectionPool();
  try {
    const report = await runGraph(graph, inventory, prebuildSteps(graph, inventory), {
      mode,
      forks: 5,
      timeoutMs: 60_000,
      connect: (h) => pool.get(h),
    });
    return { step: report.hosts[host]!.steps[0]!, report };
  } finally {
    await pool.closeAll();
  }
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real `play` command line, run in `cwd` (default: the checkout). A report it wrote that does not
 *  match docs/schema/report.schema.json rejects, with the schema's errors (report-schema.ts). */
export function play(args: string[], env: NodeJS.ProcessEnv = {}, cwd = projectRoot): Promise<CliResult> {
  return new Promise((resolveP, reject) => {
    const child = spawn(process.execPath, [resolve(projectRoot, 'bin/play.mjs'), ...args], {
      cwd,
      env: { ...process.env, PLAY_INVENTORY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      try {
        checkReportsWrittenBy(args, cwd, stdout);
        resolveP({ code: code ?? -1, stdout, stderr });
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** Console text without the `HH:MM:SS ` stamp a run puts on every line when its output is not a terminal. */
export function unstamped(text: string): string {
  return text.replace(/^\d\d:\d\d:\d\d /gm, '');
}

/**
 * `play ARGV --every EVERY` as a child process (a schedule's loop), its stderr kept, killed when the
 * test ends: `stderr()` so far, `until(n, count)` waits (at most 60 s) until `count(stderr())`
 * reaches n, and `exited` is its exit code.
 */
export function driftLoop(t: ExecutionContext, argv: readonly string[], every: string) {
  const child = spawn(process.execPath, [resolve(projectRoot, 'bin/play.mjs'), ...argv, '--every', every], {
    cwd: projectRoot,
    env: { ...process.env, PLAY_INVENTORY: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  t.teardown(() => child.kill('SIGKILL'));
  return {
    child,
    exited,
    stderr: () => stderr,
    until: async (n: number, count: (stderr: string) => number) => {
      for (let i = 0; i < 600 && count(stderr) < n; i++) await sleep(100);
    },
  };
}
