// The Markdown report (runner/drift/report/markdown.ts): compared whole, and tables that hostile
// values cannot break (every row keeps its six cells).
import test from 'ava';
import { renderMarkdown } from '../../runner/drift/report/markdown.js';
import { emptyRun, expected, fixtureRun } from './fixtures.js';

test('the fixture run renders as the expected Markdown, whole', (t) => {
  t.is(renderMarkdown(fixtureRun()), expected('report.md'));
});

test('a run with no drift is the summary and the run line', (t) => {
  t.is(
    renderMarkdown(emptyRun()),
    'Drift run 1: 0 new, 0 persisting, 0 resolved, 0 waived; no drift\n\n' +
      'exit code 0 (no drift) · 2024-05-01T00:00:00.000Z · 812 ms · tor-gateway · inventory lab\n',
  );
});

/** The cells of a table row as GFM splits it: on `|`, a backslash escaping the character after it. */
function cells(row: string): string[] {
  const out = [''];
  for (const [m] of row.matchAll(/\\.|\||[^\\|]+/g)) {
    if (m === '|') out.push('');
    else out[out.length - 1] += m;
  }
  return out.slice(1, -1);
}

test('every table row has its six cells, whatever the values hold', (t) => {
  const run = fixtureRun();
  run.items[0]!.before = { value: '|||```|\\|\n|' };
  const rows = renderMarkdown(run)
    .split('\n')
    .filter((l) => l.startsWith('| '));
  t.is(rows.length, 4 * 2 + run.items.length);
  for (const r of rows) t.is(cells(r).length, 6, r);
  // A backslash in a value is escaped too, so it cannot escape the pipe after it.
  t.true(rows.some((r) => r.includes('value: "\\|\\|\\|\\`\\`\\`\\|\\\\\\\\\\|\\\\n\\|" → "1"')));
});

test('long values and long diffs are cut, and say so', (t) => {
  const run = fixtureRun();
  run.items = [
    {
      ...run.items[2]!,
      fields: ['mode'],
      before: { mode: 'x'.repeat(50) },
      after: { mode: 'y' },
      textDiff: Array.from({ length: 25 }, (_, n) => `+line ${n}`).join('\n'),
    },
  ];
  const md = renderMarkdown(run, { maxValue: 10, maxDiffLines: 3 });
  t.true(md.includes('| mode: "xxxxxxxx… → "y" |'));
  t.true(md.includes('```diff\n+line 0\n+line 1\n+line 2\n… 22 more lines\n```\n'));
});
