// The Windows steps' diff tables (test/tasks/windows/diff.test.ts and the step folders' tests): a row is a
// step, an actual state and the whole change expected; a warning is matched by a pattern, the rest compared whole.
import test from 'ava';
import type { Change } from '../../../runner/core/change.js';
import type { AnyStep } from '../../../runner/core/step.js';

export type DiffRow = {
  name: string;
  step: AnyStep;
  actual: unknown;
  expect: Omit<Change, 'warnings'> & { warning?: RegExp };
};

/** One ava test a row, titled `diff: NAME`. */
export function diffTests(rows: readonly DiffRow[]): void {
  for (const r of rows) {
    test(`diff: ${r.name}`, (t) => {
      const change = r.step.diff(r.step.desired, r.actual);
      const { warning, ...expect } = r.expect;
      const { warnings, ...rest } = change;
      t.deepEqual(warning ? rest : change, expect);
      if (warning)
        t.true(
          (warnings ?? []).some((x) => warning.test(x)),
          JSON.stringify(warnings),
        );
    });
  }
}
