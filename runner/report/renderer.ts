// How a run is shown while it goes. The compact renderer prints one line per host as it finishes
// (right for CI logs); above PER_HOST_LINES_MAX hosts only the hosts with a problem get a line of
// their own while the run goes, and the end groups hosts by outcome, so 1,000 hosts are a handful of
// lines, not a wall. The live one (listr2) is for a terminal.
import type { Writable } from 'node:stream';
import type { RunEvent } from '../run/run-graph.js';
import type { RunReport } from './model.js';
import { countLine, failedOutputLines, groupedChanges, outcomeLines, summaryLine } from './text.js';

/** Above this many hosts, a line per host is a wall of text: group instead. */
export const PER_HOST_LINES_MAX = 20;

export interface Renderer {
  start(hosts: readonly string[]): void;
  onEvent(event: RunEvent): void;
  finish(report: RunReport): Promise<void> | void;
}

export interface RenderOptions {
  out: Writable;
  diff: boolean;
  title: string;
  /** The output tails of failed steps at the end (default true; -v has shown every step's already). */
  failedOutput?: boolean;
}

export function printClosing(out: Writable, report: RunReport, diff: boolean, failedOutput = true): void {
  const lines = groupedChanges(report, diff || report.mode === 'check');
  if (lines.length)
    out.write(`${report.mode === 'check' ? 'would change' : 'changes and failures'}:\n${lines.join('\n')}\n`);
  const output = failedOutput ? failedOutputLines(report) : [];
  if (output.length) out.write(`output of failed steps:\n${output.join('\n')}\n`);
  out.write(summaryLine(report) + '\n');
}

export class CompactRenderer implements Renderer {
  #width = 8;
  #grouped = false;
  constructor(private readonly options: RenderOptions) {}

  start(hosts: readonly string[]): void {
    this.#grouped = hosts.length > PER_HOST_LINES_MAX;
    this.#width = Math.max(8, ...hosts.map((h) => h.length));
    this.options.out.write(`${this.options.title} on ${hosts.length} host${hosts.length === 1 ? '' : 's'}\n`);
  }

  onEvent(event: RunEvent): void {
    if (event.type !== 'host-done') return;
    const r = event.report;
    const firstProblem = r.steps.find((s) => s.status === 'failed' || s.status === 'unreachable');
    if (this.#grouped && !firstProblem) return;
    const why = firstProblem ? ` ${firstProblem.task}: ${firstProblem.error ?? ''}` : '';
    this.options.out.write(`${event.host.padEnd(this.#width)}  ${r.status.padEnd(11)} ${countLine(r)}${why}\n`);
  }

  finish(report: RunReport): void {
    if (this.#grouped)
      this.options.out.write(
        outcomeLines(report)
          .map((l) => `${l}\n`)
          .join(''),
      );
    printClosing(this.options.out, report, this.options.diff, this.options.failedOutput);
  }
}
