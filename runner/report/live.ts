// The live view on a terminal: listr2 with one row per host showing the step it is on. listr2 is
// only the view here: the runner drives the work and feeds events; each row's promise settles
// when its host is done.
import { Listr, type ListrTaskWrapper } from 'listr2';
import type { RunEvent } from '../run/run-graph.js';
import type { HostReport, RunReport } from './model.js';
import { printClosing, type RenderOptions, type Renderer } from './renderer.js';
import { countLine, stepLine } from './text.js';

interface Row {
  task?: ListrTaskWrapper<unknown, any, any>;
  settle?: (r: HostReport) => void;
  early?: HostReport;
  current?: string;
}

export class LiveRenderer implements Renderer {
  readonly #rows = new Map<string, Row>();
  #running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: RenderOptions) {}

  start(hosts: readonly string[]): void {
    for (const h of hosts) this.#rows.set(h, {});
    const list = new Listr(
      hosts.map((host) => ({
        title: host,
        task: (_ctx: unknown, task: ListrTaskWrapper<unknown, any, any>) =>
          new Promise<void>((resolve, reject) => {
            const row = this.#rows.get(host)!;
            row.task = task;
            if (row.current) task.title = `${host} › ${row.current}`;
            const settle = (r: HostReport) => {
              task.title = `${host}: ${r.status} (${countLine(r)})`;
              const bad = r.steps.find((s) => s.status === 'failed' || s.status === 'unreachable');
              if (bad) reject(new Error(`${host}: ${stepLine(bad)}`));
              else resolve();
            };
            if (row.early) settle(row.early);
            else row.settle = settle;
          }),
      })),
      {
        concurrent: true,
        exitOnError: false,
        registerSignalListeners: false,
        rendererOptions: { collapseErrors: false },
      },
    );
    this.#running = list.run().catch(() => undefined);
  }

  onEvent(event: RunEvent): void {
    if (event.type === 'step-start') {
      const host = event.node.runsOn.name;
      const row = this.#rows.get(host);
      if (!row) return;
      // The step a host is on goes in its title: listr2 may start the row after the first event.
      row.current = `${event.node.task}${event.node.runsOn !== event.node.target ? ` (for ${event.node.target.name})` : ''}`;
      if (row.task) row.task.title = `${host} › ${row.current}`;
    } else if (event.type === 'host-done') {
      const row = this.#rows.get(event.host);
      if (!row) return;
      if (row.settle) row.settle(event.report);
      else row.early = event.report;
    }
  }

  async finish(report: RunReport): Promise<void> {
    await this.#running;
    printClosing(this.options.out, report, this.options.diff, this.options.failedOutput);
  }
}
