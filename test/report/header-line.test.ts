// The line a run prints before its view exists (the inventory it works on) is stamped exactly when
// the view's lines will be: everywhere but a terminal that may show the live view.
import test from 'ava';
import { headerLine } from '../../runner/report/header-line.js';

const AT = new Date(2026, 4, 1, 14, 3, 7);
const LINE = 'inventory: /srv/hosts.yaml (from -i)\n';

test('stamped unless a terminal may show the live view', (t) => {
  const cases = [
    { terminal: false, mayBeLive: true },
    { terminal: false, mayBeLive: false },
    { terminal: true, mayBeLive: false },
    { terminal: true, mayBeLive: true },
  ].map((o) => [o.terminal, o.mayBeLive, headerLine(LINE, o, AT)]);
  t.deepEqual(cases, [
    [false, true, `14:03:07 ${LINE}`],
    [false, false, `14:03:07 ${LINE}`],
    [true, false, `14:03:07 ${LINE}`],
    [true, true, LINE],
  ]);
});

test('every line of a longer header is stamped', (t) => {
  t.is(headerLine('a\nb\n', { terminal: false, mayBeLive: false }, AT), '14:03:07 a\n14:03:07 b\n');
});
