// Maintenance windows: the grammar, and whether a window is open, when it next opens and when it
// closes, in a zone without DST (Asia/Shanghai, UTC+8) and across Europe/Berlin's 2026 changes
// (29 March 02:00 CET -> 03:00 CEST at 01:00Z; 25 October 03:00 CEST -> 02:00 CET at 01:00Z).
// 2026-03-28 and 2026-10-24 are Saturdays. Tables compared whole.
import test from 'ava';
import { RollingOptionError } from '../../runner/rolling/serial.js';
import {
  closesAt,
  describeWindow,
  inWindow,
  type MaintenanceWindow,
  nextOpening,
  parseWindow,
} from '../../runner/rolling/window.js';

const ALL = [0, 1, 2, 3, 4, 5, 6];

test('windows parsed', (t) => {
  const w = (text: string, days: number[], start: number, end: number, zone: string | null): MaintenanceWindow => ({
    text,
    days,
    start,
    end,
    zone,
  });
  const table: [string, MaintenanceWindow][] = [
    ['Sat,Sun 01:00-05:00 Asia/Shanghai', w('Sat,Sun 01:00-05:00 Asia/Shanghai', [0, 6], 60, 300, 'Asia/Shanghai')],
    ['mon-fri 22:00-06:00 UTC', w('mon-fri 22:00-06:00 UTC', [1, 2, 3, 4, 5], 1320, 360, 'UTC')],
    [
      'Fri-Mon 00:00-24:00 Europe/Berlin',
      w('Fri-Mon 00:00-24:00 Europe/Berlin', [0, 1, 5, 6], 0, 1440, 'Europe/Berlin'),
    ],
    ['* 01:00-05:00', w('* 01:00-05:00', ALL, 60, 300, null)],
    ['Daily 9:30-10:00 utc', w('Daily 9:30-10:00 utc', ALL, 570, 600, 'UTC')],
    [
      ' Saturday, SUNDAY 23:00-02:00  Asia/Shanghai ',
      w(' Saturday, SUNDAY 23:00-02:00  Asia/Shanghai ', [0, 6], 1380, 120, 'Asia/Shanghai'),
    ],
    ['Mon,Mon-Tue 01:00-02:00', w('Mon,Mon-Tue 01:00-02:00', [1, 2], 60, 120, null)],
    ['Wed-Wed 00:00-23:59', w('Wed-Wed 00:00-23:59', [3], 0, 1439, null)],
    ['Sun 23:59-00:00 UTC', w('Sun 23:59-00:00 UTC', [0], 1439, 0, 'UTC')],
  ];
  t.deepEqual(
    table.map(([text]) => [text, parseWindow(text)]),
    table,
  );
});

const GRAMMAR =
  "expected DAYS HH:MM-HH:MM [ZONE], e.g. 'Sat,Sun 01:00-05:00 Asia/Shanghai' (DAYS: Mon-Fri, Sat,Sun or *)";

test('windows refused, every message whole', (t) => {
  const table: [string, string][] = [
    ['', `--window "": ${GRAMMAR}`],
    ['Sat', `--window "Sat": ${GRAMMAR}`],
    ['Sat 01:00-05:00 Asia/Shanghai later', `--window "Sat 01:00-05:00 Asia/Shanghai later": ${GRAMMAR}`],
    ['Funday 01:00-05:00', `--window "Funday 01:00-05:00": "Funday" is not a list of days; ${GRAMMAR}`],
    ['Sat,,Sun 01:00-05:00', `--window "Sat,,Sun 01:00-05:00": "Sat,,Sun" is not a list of days; ${GRAMMAR}`],
    ['Sat, 01:00-05:00', `--window "Sat, 01:00-05:00": ${GRAMMAR}`],
    ['Mon-Fri-Sat 01:00-02:00', `--window "Mon-Fri-Sat 01:00-02:00": "Mon-Fri-Sat" is not a list of days; ${GRAMMAR}`],
    ['Mon- 01:00-02:00', `--window "Mon- 01:00-02:00": "Mon-" is not a list of days; ${GRAMMAR}`],
    ['Sat 1am-5am', `--window "Sat 1am-5am": "1am-5am" is not HH:MM-HH:MM; ${GRAMMAR}`],
    ['Sat 01:00', `--window "Sat 01:00": "01:00" is not HH:MM-HH:MM; ${GRAMMAR}`],
    ['01:00-05:00 Sat', `--window "01:00-05:00 Sat": "01:00-05:00" is not a list of days; ${GRAMMAR}`],
    ['Sat,Sun 25:00-05:00', '--window "Sat,Sun 25:00-05:00": 25:00 is not a time (HH:MM, 00:00-23:59)'],
    ['Sat 12:60-13:00', '--window "Sat 12:60-13:00": 12:60 is not a time (HH:MM, 00:00-23:59)'],
    ['Sat 24:00-05:00', '--window "Sat 24:00-05:00": 24:00 is not a time (HH:MM, 00:00-23:59)'],
    ['Sat 01:00-24:01', '--window "Sat 01:00-24:01": 24:01 is not a time (HH:MM, 00:00-23:59, or 24:00 for an end)'],
    [
      'Sat 05:00-05:00',
      '--window "Sat 05:00-05:00": the window opens and closes at 05:00: give an end other than the start (00:00-24:00 for a whole day)',
    ],
    [
      'Sat 00:00-00:00',
      '--window "Sat 00:00-00:00": the window opens and closes at 00:00: give an end other than the start (00:00-24:00 for a whole day)',
    ],
    [
      'Sat 01:00-05:00 Mars/Olympus',
      '--window "Sat 01:00-05:00 Mars/Olympus": unknown time zone "Mars/Olympus" (an IANA name such as Europe/Berlin, or UTC)',
    ],
    ['* 00:00-24:00 UTC', '--window "* 00:00-24:00 UTC": the window is always open; leave the window out'],
    ['Mon-Sun 00:00-24:00', '--window "Mon-Sun 00:00-24:00": the window is always open; leave the window out'],
  ];
  const got = table.map(([text]) => {
    try {
      parseWindow(text);
      return [text, '(no error)'];
    } catch (e) {
      if (!(e instanceof RollingOptionError) || e.field !== '--window') throw e;
      return [text, e.message];
    }
  });
  t.deepEqual(got, table);
});

type When = [window: string, now: string, open: boolean, next: string, closes: string | null];

/** Each row: at `now`, open?, nextOpening, closesAt. */
function check(rows: When[]) {
  return rows.map(([text, now]): When => {
    const w = parseWindow(text);
    const at = new Date(now);
    return [text, now, inWindow(w, at), nextOpening(w, at).toISOString(), closesAt(w, at)?.toISOString() ?? null];
  });
}

test('Asia/Shanghai (UTC+8, no DST): open, next opening, close', (t) => {
  const ss = 'Sat,Sun 01:00-05:00 Asia/Shanghai'; // Sat 01:00 CST is Fri 17:00Z
  const night = 'Sat 23:00-02:00 Asia/Shanghai'; // Sat 15:00Z to 18:00Z
  const rows: When[] = [
    [ss, '2026-03-27T16:59:59.000Z', false, '2026-03-27T17:00:00.000Z', null],
    [ss, '2026-03-27T17:00:00.000Z', true, '2026-03-27T17:00:00.000Z', '2026-03-27T21:00:00.000Z'],
    [ss, '2026-03-27T20:59:59.000Z', true, '2026-03-27T20:59:59.000Z', '2026-03-27T21:00:00.000Z'],
    // the end is not in the window
    [ss, '2026-03-27T21:00:00.000Z', false, '2026-03-28T17:00:00.000Z', null],
    [ss, '2026-03-28T18:00:00.000Z', true, '2026-03-28T18:00:00.000Z', '2026-03-28T21:00:00.000Z'],
    [ss, '2026-03-29T00:00:00.000Z', false, '2026-04-03T17:00:00.000Z', null],
    [ss, '2026-04-01T04:00:00.000Z', false, '2026-04-03T17:00:00.000Z', null],
    // across midnight: Saturday's opening, open on Sunday morning
    [night, '2026-03-28T14:00:00.000Z', false, '2026-03-28T15:00:00.000Z', null],
    [night, '2026-03-28T17:00:00.000Z', true, '2026-03-28T17:00:00.000Z', '2026-03-28T18:00:00.000Z'],
    [night, '2026-03-28T18:00:00.000Z', false, '2026-04-04T15:00:00.000Z', null],
    // Sunday night is not Saturday night; nor is Saturday 00:30 (Friday does not open)
    [night, '2026-03-29T15:30:00.000Z', false, '2026-04-04T15:00:00.000Z', null],
    [night, '2026-03-27T16:30:00.000Z', false, '2026-03-28T15:00:00.000Z', null],
  ];
  t.deepEqual(check(rows), rows);
});

test('every day, and days that meet', (t) => {
  const nightly = '* 22:00-06:00 UTC';
  const weekend = 'Sat,Sun 00:00-24:00 UTC';
  const rows: When[] = [
    [nightly, '2026-03-28T12:00:00.000Z', false, '2026-03-28T22:00:00.000Z', null],
    [nightly, '2026-03-28T23:00:00.000Z', true, '2026-03-28T23:00:00.000Z', '2026-03-29T06:00:00.000Z'],
    [nightly, '2026-03-31T05:59:59.000Z', true, '2026-03-31T05:59:59.000Z', '2026-03-31T06:00:00.000Z'],
    [nightly, '2026-03-31T06:00:00.000Z', false, '2026-03-31T22:00:00.000Z', null],
    // Saturday's and Sunday's openings meet: the window closes Monday 00:00
    [weekend, '2026-03-28T12:00:00.000Z', true, '2026-03-28T12:00:00.000Z', '2026-03-30T00:00:00.000Z'],
    [weekend, '2026-03-29T23:00:00.000Z', true, '2026-03-29T23:00:00.000Z', '2026-03-30T00:00:00.000Z'],
    [weekend, '2026-03-30T00:00:00.000Z', false, '2026-04-04T00:00:00.000Z', null],
    [
      'Fri-Mon 00:00-24:00 UTC',
      '2026-03-28T12:00:00.000Z',
      true,
      '2026-03-28T12:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
    ],
  ];
  t.deepEqual(check(rows), rows);
});

test('Europe/Berlin, spring forward (2026-03-29): a time in the gap is when the gap ends', (t) => {
  const early = 'Sun 01:00-05:00 Europe/Berlin'; // 01:00 CET (00:00Z) to 05:00 CEST (03:00Z): 3 hours
  const inGap = 'Sun 02:30-05:00 Europe/Berlin'; // 02:30 does not exist: opens at 03:00 CEST (01:00Z)
  const endsInGap = 'Sat 23:00-02:30 Europe/Berlin'; // Sat 23:00 CET (22:00Z) to the jump (01:00Z)
  const wholly = 'Sun 02:00-02:30 Europe/Berlin'; // nothing that night: next Sunday 02:00 CEST
  const rows: When[] = [
    [early, '2026-03-28T23:59:59.000Z', false, '2026-03-29T00:00:00.000Z', null],
    [early, '2026-03-29T00:30:00.000Z', true, '2026-03-29T00:30:00.000Z', '2026-03-29T03:00:00.000Z'],
    [early, '2026-03-29T03:00:00.000Z', false, '2026-04-04T23:00:00.000Z', null],
    // the Sunday before, in CET
    [early, '2026-03-21T12:00:00.000Z', false, '2026-03-22T00:00:00.000Z', null],
    [early, '2026-03-22T03:30:00.000Z', true, '2026-03-22T03:30:00.000Z', '2026-03-22T04:00:00.000Z'],
    [inGap, '2026-03-29T00:59:59.000Z', false, '2026-03-29T01:00:00.000Z', null],
    [inGap, '2026-03-29T01:00:00.000Z', true, '2026-03-29T01:00:00.000Z', '2026-03-29T03:00:00.000Z'],
    [endsInGap, '2026-03-28T21:59:59.000Z', false, '2026-03-28T22:00:00.000Z', null],
    [endsInGap, '2026-03-29T00:59:59.000Z', true, '2026-03-29T00:59:59.000Z', '2026-03-29T01:00:00.000Z'],
    [endsInGap, '2026-03-29T01:00:00.000Z', false, '2026-04-04T21:00:00.000Z', null],
    [wholly, '2026-03-28T12:00:00.000Z', false, '2026-04-05T00:00:00.000Z', null],
    [wholly, '2026-03-29T01:00:00.000Z', false, '2026-04-05T00:00:00.000Z', null],
    // from just after the Sunday before's opening (01:00Z-01:30Z in CET): two weeks, not a week
    [wholly, '2026-03-22T01:30:00.000Z', false, '2026-04-05T00:00:00.000Z', null],
  ];
  t.deepEqual(check(rows), rows);
});

test('west of UTC (America/New_York, spring forward 2026-03-08 02:00 EST -> 03:00 EDT at 07:00Z)', (t) => {
  const inGap = 'Sun 02:30-04:00 America/New_York'; // opens at the jump (07:00Z), closes 04:00 EDT (08:00Z)
  const rows: When[] = [
    [inGap, '2026-03-08T06:59:59.000Z', false, '2026-03-08T07:00:00.000Z', null],
    [inGap, '2026-03-08T07:30:00.000Z', true, '2026-03-08T07:30:00.000Z', '2026-03-08T08:00:00.000Z'],
    [inGap, '2026-03-08T08:00:00.000Z', false, '2026-03-15T06:30:00.000Z', null],
  ];
  t.deepEqual(check(rows), rows);
});

test('Europe/Berlin, fall back (2026-10-25): a time that happens twice is its first', (t) => {
  const early = 'Sun 01:00-05:00 Europe/Berlin'; // 01:00 CEST (Sat 23:00Z) to 05:00 CET (04:00Z): 5 hours
  const twice = 'Sun 02:30-03:30 Europe/Berlin'; // the first 02:30 (CEST, 00:30Z) to 03:30 CET (02:30Z)
  const endsTwice = 'Sat 22:00-02:30 Europe/Berlin'; // Sat 22:00 CEST (20:00Z) to the first 02:30 (00:30Z)
  const rows: When[] = [
    [early, '2026-10-24T22:59:59.000Z', false, '2026-10-24T23:00:00.000Z', null],
    [early, '2026-10-25T01:30:00.000Z', true, '2026-10-25T01:30:00.000Z', '2026-10-25T04:00:00.000Z'],
    [early, '2026-10-25T04:00:00.000Z', false, '2026-11-01T00:00:00.000Z', null],
    [twice, '2026-10-25T00:29:59.000Z', false, '2026-10-25T00:30:00.000Z', null],
    [twice, '2026-10-25T02:00:00.000Z', true, '2026-10-25T02:00:00.000Z', '2026-10-25T02:30:00.000Z'],
    [endsTwice, '2026-10-25T00:15:00.000Z', true, '2026-10-25T00:15:00.000Z', '2026-10-25T00:30:00.000Z'],
    // the second 02:15 (CET): the window closed at the first 02:30
    [endsTwice, '2026-10-25T01:15:00.000Z', false, '2026-10-31T21:00:00.000Z', null],
  ];
  t.deepEqual(check(rows), rows);
});

test('describeWindow', (t) => {
  const table: [string, string][] = [
    ['Sat,Sun 01:00-05:00 Asia/Shanghai', 'Sat, Sun 01:00-05:00 Asia/Shanghai'],
    ['mon-fri 22:00-06:00 utc', 'Mon-Fri 22:00-06:00 (next day) UTC'],
    ['* 01:00-05:00', "every day 01:00-05:00 (the controller's local time)"],
    ['Fri-Mon 00:00-24:00 Europe/Berlin', 'Mon, Fri-Sun 00:00-24:00 Europe/Berlin'],
    ['Sun,Tue,Mon,Thu 9:05-10:00 UTC', 'Mon, Tue, Thu, Sun 09:05-10:00 UTC'],
  ];
  t.deepEqual(
    table.map(([text]) => [text, describeWindow(parseWindow(text))]),
    table,
  );
});
