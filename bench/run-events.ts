// `npx tsx bench/run-events.ts [--hosts 1000] [--ticks 40]`: what a run's events cost the controller
// besides the run itself (runner/report/run-output.ts). A drift tick of HOSTS hosts with the bench's
// five steps each (12 events a host) goes through RunOutputs as a scheduled drift without a terminal
// has it: plain (the heartbeat alone), then with --events to a file of its own (removed at the end).
// Prints the CPU time per tick, after 5 warm-up ticks: on a busy machine the wall time would measure
// the others.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Writable } from 'node:stream';
import type { HostReport, StepReport } from '../runner/report/model.js';
import { RunOutputs, type RunOutputOptions } from '../runner/report/run-output.js';
import type { RunEvent } from '../runner/run/run-graph.js';

const { values } = parseArgs({
  options: { hosts: { type: 'string', default: '1000' }, ticks: { type: 'string', default: '40' } },
});
const hosts = Number(values.hosts);
const ticks = Number(values.ticks);
if (!Number.isInteger(hosts) || hosts < 1 || !Number.isInteger(ticks) || ticks < 1) {
  console.error('usage: npx tsx bench/run-events.ts [--hosts N] [--ticks N]');
  process.exit(64);
}

const TASKS = ['dir', 'copy', 'line', 'init', 'forward'];
const names = Array.from({ length: hosts }, (_, i) => `linux${i + 1}`);
const report = (task: string): StepReport => ({
  task,
  kind: 'linux.file',
  title: task,
  action: 'noop',
  fields: [],
  before: null,
  after: null,
  status: 'ok',
  durationMs: 3,
  error: null,
});
const hostReport: HostReport = { status: 'ok', steps: TASKS.map(report) };

/** One tick's events, in the scheduler's order per host. Only the fields RunOutputs reads are real:
 *  a task node is its task and the host it runs on. */
function tickEvents(): RunEvent[] {
  const events: RunEvent[] = [{ type: 'run-start', playbook: 'bench', mode: 'check', hosts: names }];
  for (const name of names) {
    const host = { name };
    events.push({ type: 'host-start', host: name });
    for (const task of TASKS) {
      const node = { task, runsOn: host, target: host } as unknown as Extract<RunEvent, { type: 'step-start' }>['node'];
      events.push({ type: 'step-start', node }, { type: 'step-done', node, report: report(task) });
    }
    events.push({ type: 'host-done', host: name, report: hostReport });
  }
  return events;
}

function cpuMsPerTick(extra: Partial<RunOutputOptions>): number {
  const nowhere = new Writable({ write: (_chunk, _enc, done) => done() });
  const out = new RunOutputs({ verbosity: 0, view: nowhere, stdout: nowhere, live: false, ...extra });
  const events = tickEvents();
  try {
    for (let i = 0; i < 5; i++) for (const e of events) out.onEvent(e);
    const before = process.cpuUsage();
    for (let i = 0; i < ticks; i++) for (const e of events) out.onEvent(e);
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / ticks;
  } finally {
    out.close();
  }
}

const events = tickEvents().length;
const dir = mkdtempSync(join(tmpdir(), 'play-bench-events-'));
try {
  console.log(`${hosts} hosts, ${events} events a tick, ${ticks} ticks after 5 warm-up ones: CPU per tick`);
  console.log(`  plain (the heartbeat):     ${cpuMsPerTick({}).toFixed(1)} ms`);
  console.log(`  --events FILE:             ${cpuMsPerTick({ events: join(dir, 'events.jsonl') }).toFixed(1)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
