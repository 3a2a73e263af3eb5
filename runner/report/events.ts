// The run's event stream: each of the runner's transitions (a RunEvent from the scheduler, run-graph
// and the transport's trace) as one JSON-ready event with its ISO timestamp. Pure: the clock is an
// argument. `--events` writes these as JSON Lines; the verbose view, the heartbeat and --log read them.
import type { RunEvent } from '../run/run-graph.js';
import type { HostReport } from './model.js';
import type { PlayEvent, StepCounts } from './schema/event-schema.js';

export type { PlayEvent } from './schema/event-schema.js';

/** A step count per status: every status present, zero when none. */
export function stepCounts(report: HostReport): StepCounts {
  const c: StepCounts = { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0, unknown: 0 };
  for (const s of report.steps) c[s.status]++;
  return c;
}

/** The event for one transition of the run, stamped `now`. */
export function toPlayEvent(e: RunEvent, now: Date): PlayEvent {
  const ts = now.toISOString();
  switch (e.type) {
    case 'run-start':
      return {
        ts,
        type: e.type,
        playbook: e.playbook,
        mode: e.mode,
        hosts: [...e.hosts],
        ...(e.inventory ? { inventory: e.inventory } : {}),
      };
    case 'host-start':
      return { ts, type: e.type, host: e.host };
    case 'step-start':
      return {
        ts,
        type: e.type,
        host: e.node.runsOn.name,
        task: e.node.task,
        ...(e.node.runsOn !== e.node.target ? { target: e.node.target.name } : {}),
      };
    case 'step-done': {
      const r = e.report;
      return {
        ts,
        type: e.type,
        host: e.node.runsOn.name,
        task: r.task,
        ...(r.target ? { target: r.target } : {}),
        kind: r.kind,
        title: r.title,
        status: r.status,
        ...(r.skip ? { skip: r.skip } : {}),
        action: r.action,
        fields: [...r.fields],
        durationMs: r.durationMs,
        error: r.error,
        ...(r.output ? { output: { ...r.output } } : {}),
      };
    }
    case 'host-done':
      return { ts, type: e.type, host: e.host, status: e.report.status, counts: stepCounts(e.report) };
    case 'run-done':
      return {
        ts,
        type: e.type,
        playbook: e.report.playbook,
        summary: { ...e.report.summary },
        durationMs: e.report.durationMs,
        interrupted: e.report.interrupted,
      };
    case 'trace':
      return { ts, type: e.type, level: e.level, host: e.host, text: e.text };
  }
}

/** One line of `--events`: the event as JSON, a newline after it. */
export function eventLine(event: PlayEvent): string {
  return `${JSON.stringify(event)}\n`;
}
