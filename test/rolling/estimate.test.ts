// The run's time estimate (runner/rolling/estimate.ts), pure: past cycles read from a journal, batches
// from the slowest node plus the soak, and the fit against a maintenance window, compared whole.
import test from 'ava';
import {
  cycleSamples,
  DEFAULT_CYCLE_SEC,
  durationText,
  estimateRun,
  windowOpenings,
  windowsNeeded,
} from '../../runner/rolling/estimate.js';
import { parseWindow } from '../../runner/rolling/window.js';
import type { JournalEvent } from '../../runner/state/store.js';

const at = (min: number) => new Date(Date.UTC(2026, 0, 3, 1, 0) + min * 60_000).toISOString();
const ev = (host: string, phase: string, state: JournalEvent['state'], min: number): JournalEvent => ({
  runId: 1,
  host,
  phase,
  state,
  at: at(min),
  detail: null,
  data: null,
});

test('past cycles: the phases of each finished node summed (a pause between them is not work); failed nodes left out', (t) => {
  const events = [
    ev('node010', 'check', 'begin', 0),
    ev('node010', 'check', 'end', 1),
    ev('node010', 'cordon', 'begin', 1),
    ev('node010', 'cordon', 'end', 1),
    ev('node010', 'drain', 'begin', 1),
    ev('node010', 'drain', 'end', 3),
    // the run paused here for an hour (a window closed); resumed, the node carries on
    ev('node010', 'apply', 'begin', 63),
    ev('node010', 'apply', 'end', 73),
    ev('node010', 'ready', 'begin', 73),
    ev('node010', 'ready', 'end', 75),
    ev('node010', 'uncordon', 'begin', 75),
    ev('node010', 'uncordon', 'end', 75),
    ev('node010', 'done', 'end', 75),
    ev('node011', 'check', 'begin', 0),
    ev('node011', 'check', 'end', 1),
    ev('node011', 'drain', 'begin', 1),
    ev('node011', 'drain', 'fail', 6),
  ];
  t.deepEqual(cycleSamples(events), [{ host: 'node010', sec: 15 * 60 }]);
});

test('batches take their slowest node plus the soak: a host’s own median, else every host’s, else the default', (t) => {
  const samples = [
    { host: 'node010', sec: 600 },
    { host: 'node010', sec: 700 },
    { host: 'node010', sec: 2000 },
    { host: 'node011', sec: 900 },
  ];
  t.deepEqual(estimateRun({ batches: [['node010'], ['node011', 'node012']], samples, soakSec: 60, window: null }), {
    basis: 'history',
    samples: 4,
    // node010: its median 700; node011: 900; node012 (never seen): the median of all, (700 + 900) / 2.
    batches: [
      { batch: 1, hosts: ['node010'], sec: 760 },
      { batch: 2, hosts: ['node011', 'node012'], sec: 960 },
    ],
    totalSec: 1720,
    window: null,
  });
  t.deepEqual(estimateRun({ batches: [['a'], ['b', 'c'], ['d']], samples: [], soakSec: 0, window: null }), {
    basis: 'default',
    samples: 0,
    batches: [
      { batch: 1, hosts: ['a'], sec: DEFAULT_CYCLE_SEC },
      { batch: 2, hosts: ['b', 'c'], sec: DEFAULT_CYCLE_SEC },
      { batch: 3, hosts: ['d'], sec: DEFAULT_CYCLE_SEC },
    ],
    totalSec: 3 * DEFAULT_CYCLE_SEC,
    window: null,
  });
});

test('the window: fits when the run ends by the first close; else windows counted as batches start before a close', (t) => {
  const w = (firstSec: number, openSec: number) => ({ text: 'Sat 01:00-02:00 UTC', firstSec, openSec });
  const batches = [['a'], ['b'], ['c'], ['d']];
  const run = (window: ReturnType<typeof w>) => estimateRun({ batches, samples: [], soakSec: 0, window }).window;
  t.deepEqual(
    [run(w(3600, 3600)), run(w(900, 3600)), run(w(10_800, 10_800))],
    [
      // four 15-minute batches: the fourth starts at 45 min, before the close at 60
      { window: 'Sat 01:00-02:00 UTC', firstSec: 3600, openSec: 3600, fits: true, windowsNeeded: 1 },
      // a quarter of an hour left now: one batch, then the next opening takes the other three
      { window: 'Sat 01:00-02:00 UTC', firstSec: 900, openSec: 3600, fits: false, windowsNeeded: 2 },
      { window: 'Sat 01:00-02:00 UTC', firstSec: 10_800, openSec: 10_800, fits: true, windowsNeeded: 1 },
    ],
  );
  t.deepEqual(
    [
      windowsNeeded([3600, 3600, 3600], 3600, 3600),
      windowsNeeded([100, 100, 100], 150, 150),
      windowsNeeded([5000], 3600, 3600),
      windowsNeeded([], 3600, 3600),
    ],
    [3, 2, 1, 1],
  );
});

test('window openings: from now when open, else the next whole one; and the one after', (t) => {
  const w = parseWindow('Sat,Sun 01:00-05:00 UTC');
  const sat = (h: number, m = 0) => new Date(Date.UTC(2026, 0, 3, h, m));
  t.deepEqual(
    [windowOpenings(w, sat(0)), windowOpenings(w, sat(4, 30)), windowOpenings(w, sat(6))],
    [
      { firstSec: 4 * 3600, openSec: 4 * 3600 },
      { firstSec: 1800, openSec: 4 * 3600 },
      { firstSec: 4 * 3600, openSec: 4 * 3600 },
    ],
  );
});

test('durations as the plan prints them', (t) => {
  t.deepEqual([45, 900, 3900, 7200, 200_000].map(durationText), ['45s', '15m', '1h 05m', '2h 00m', '2d 7h']);
});
