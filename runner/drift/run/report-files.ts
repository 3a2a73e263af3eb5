// The report files a drift run was asked for (--junit, --html, --markdown, --metrics), each written
// atomically; a file that cannot be written is a usage error naming it.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { UsageError } from '../../core/errors.js';
import type { Checked } from '../collect.js';
import type { DriftRun } from '../model.js';
import { renderHtml } from '../report/html.js';
import { renderJunit } from '../report/junit.js';
import { renderMarkdown } from '../report/markdown.js';
import { renderMetrics } from '../report/metrics.js';
import type { DriftRunOptions } from './options.js';

export function writeReports(args: DriftRunOptions, run: DriftRun, checked: Checked[]): void {
  const files: [string | undefined, string, () => string][] = [
    [args.junit, '--junit', () => renderJunit(run, { checked })],
    [args.html, '--html', () => renderHtml(run)],
    [args.markdown, '--markdown', () => renderMarkdown(run)],
    [args.metrics, '--metrics', () => renderMetrics(run)],
  ];
  for (const [file, flag, render] of files) {
    if (!file) continue;
    // Atomic, as node_exporter's textfile collector wants: it never reads half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, render());
      renameSync(tmp, file);
    } catch (e) {
      rmSync(tmp, { force: true });
      throw new UsageError(
        `${flag} ${file}: cannot write it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      );
    }
  }
}
