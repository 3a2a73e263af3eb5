// A "host" that is this machine's /bin/sh, for the runner tests of what travels in a round trip: every
// exec, and every script sent to the connection's kept shell, is a `/bin/sh -c` child, counted.
import { spawn } from 'node:child_process';
import type { ExecResult } from '../../runner/core/step.js';
import { newNonce } from '../../runner/core/nonce.js';
import { isSecret } from '../../runner/core/secret.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { commandText } from '../../runner/transport/kept-shell.js';
import type { Playbook } from '../../runner/playbook/define.js';
import type { RunEvent } from '../../runner/run/run-graph.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';
import type { RunReport } from '../../runner/report/model.js';
import { oneHostInventory } from './one-host.js';

export function runSh(text: string, stdin?: string | Buffer): Promise<ExecResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', text]);
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.on('error', () => {}); // a script that exits before reading its stdin (EPIPE)
    child.stdin.end(stdin ?? '');
  });
}

/**
 * `pb` applied to host h1 (group web) that is this machine: its report, the round trips it took, its
 * events. `keptShell`: the connection also takes scripts as its kept shell would
 * (commandText, run by a /bin/sh of its own each time); false: every script is an exec.
 */
export async function runLocally(
  pb: Playbook<any>,
  dir: string,
  keptShell = true,
): Promise<{ report: RunReport; trips: number; events: RunEvent[] }> {
  const { inv } = oneHostInventory('h1', 'web', { user: 'root', os: 'linux' }, { dir });
  const graph = compileGraph(pb, inv);
  let trips = 0;
  const events: RunEvent[] = [];
  const report = await runGraph(graph, inv, prebuildSteps(graph, inv), {
    mode: 'apply',
    forks: 1,
    timeoutMs: 10_000,
    onEvent: (e) => events.push(e),
    connect: async () => ({
      exec: (command: string, options?: { stdin?: unknown }) => {
        trips++;
        return runSh(command, bytes(options?.stdin));
      },
      ...(keptShell && {
        script: (text: string, options?: { stdin?: unknown }) => {
          if (isSecret(options?.stdin)) return Promise.resolve(null);
          trips++;
          const stdin = bytes(options?.stdin);
          return runSh(commandText(text, newNonce(), stdin === undefined ? undefined : Buffer.from(stdin)));
        },
      }),
    }),
  });
  return { report, trips, events };
}

const bytes = (stdin: unknown) => (typeof stdin === 'string' || Buffer.isBuffer(stdin) ? stdin : undefined);

/** Each step of h1 as `task: status error`. */
export const statuses = (r: RunReport) =>
  r.hosts.h1!.steps.map((s) => `${s.task}: ${s.status}${s.error ? ` ${s.error}` : ''}`);
