// Maintenance windows (`--window 'Sat,Sun 01:00-05:00 Asia/Shanghai'`): when a rolling run may start
// a batch. Parsing, whether the window is open, when it next opens and when it closes. Pure: the clock
// is the caller's; wall clocks come from Intl (Node's ICU time zone data), nothing else.
//
// Grammar: DAYS HH:MM-HH:MM [ZONE]
// - DAYS: day names (Mon ... Sun, or Monday ... Sunday, any case) and ranges (Mon-Fri; Fri-Mon wraps
//   round the weekend), separated by commas; `*` or `daily` for every day.
// - The times are wall-clock times in ZONE. An end at or before the start (Sat 23:00-02:00) crosses
//   midnight: the opening belongs to the day it starts on, Saturday 23:00 to Sunday 02:00. 24:00 ends a
//   day. The same start and end is an error (an empty or a whole-day window: say which).
// - ZONE: an IANA name (Europe/Berlin) or UTC. Without one, the controller's local zone: a window
//   means the wall clock of whoever runs play, which is how cron reads its lines too.
// Daylight saving time: a wall time that does not exist (02:30 on a spring-forward night) is taken as
// the instant the gap ends (03:00 after the jump), so a window opening inside the gap opens when the
// clocks jump, and one ending inside it ends then; a window lying wholly inside the gap does not
// open that day. A wall time that happens twice (02:30 on a fall-back night) is its first
// occurrence. We assume at most one offset change within a day either side of a time, as in every
// zone in use.
import { RollingOptionError } from './serial.js';

export interface MaintenanceWindow {
  /** As given. */
  readonly text: string;
  /** The days an opening starts on, 0 Sunday ... 6 Saturday, ascending. */
  readonly days: readonly number[];
  /** Minutes after midnight: start 0 ... 1439; end 1 ... 1440 (24:00). end <= start: ends the next day. */
  readonly start: number;
  readonly end: number;
  /** An IANA zone name or 'UTC'; null: the controller's local zone, as it is when a time is checked. */
  readonly zone: string | null;
}

const GRAMMAR =
  "expected DAYS HH:MM-HH:MM [ZONE], e.g. 'Sat,Sun 01:00-05:00 Asia/Shanghai' (DAYS: Mon-Fri, Sat,Sun or *)";
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FULL_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const SHOWN_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_MS = 86_400_000;

/** `text` as a window; `flag` names it in errors. Throws RollingOptionError. */
export function parseWindow(text: string, flag = '--window'): MaintenanceWindow {
  const fail = (detail: string): never => {
    throw new RollingOptionError(flag, `${flag} "${text}": ${detail}`);
  };
  const tokens = text
    .trim()
    .replace(/\s*,\s*/g, ',')
    .split(/\s+/);
  if (tokens.length < 2 || tokens.length > 3) fail(GRAMMAR);
  const [daysText, timesText, zoneText] = tokens as [string, string, string?];
  const days = parseDays(daysText) ?? fail(`"${daysText}" is not a list of days; ${GRAMMAR}`);
  const m =
    /^(\d{1,2}:\d{2})-(\d{1,2}:\d{2})$/.exec(timesText) ?? fail(`"${timesText}" is not HH:MM-HH:MM; ${GRAMMAR}`);
  const start = minutes(m[1]!, false) ?? fail(`${m[1]} is not a time (HH:MM, 00:00-23:59)`);
  const end = minutes(m[2]!, true) ?? fail(`${m[2]} is not a time (HH:MM, 00:00-23:59, or 24:00 for an end)`);
  if (start === end) {
    fail(`the window opens and closes at ${m[1]}: give an end other than the start (00:00-24:00 for a whole day)`);
  }
  const zone = zoneText === undefined ? null : zoneText.toUpperCase() === 'UTC' ? 'UTC' : zoneText;
  if (zone !== null && !knownZone(zone)) {
    fail(`unknown time zone "${zone}" (an IANA name such as Europe/Berlin, or UTC)`);
  }
  if (days.length === 7 && end - start === 1440) fail('the window is always open; leave the window out');
  return { text, days, start, end, zone };
}

/** Day numbers for `Mon,Wed-Fri` or `*`, ascending; null when a part is not a day or a range. */
function parseDays(text: string): number[] | null {
  const days = new Set<number>();
  for (const part of text.toLowerCase().split(',')) {
    if (part === '*' || part === 'daily') {
      for (let d = 0; d < 7; d++) days.add(d);
      continue;
    }
    const [a, b, ...more] = part.split('-').map(dayNumber);
    if (a === undefined || a < 0 || more.length > 0 || (b !== undefined && b < 0)) return null;
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === (b ?? a)) break;
    }
  }
  return [...days].sort((x, y) => x - y);
}

const dayNumber = (name: string): number => {
  const i = DAY_NAMES.indexOf(name);
  return i >= 0 ? i : FULL_NAMES.indexOf(name);
};

/** `HH:MM` as minutes after midnight; 24:00 only where `end`. */
function minutes(hhmm: string, end: boolean): number | null {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  if (end && h === 24 && m === 0) return 1440;
  return h <= 23 && m <= 59 ? h * 60 + m : null;
}

function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Whether the window is open at `now`. */
export function inWindow(w: MaintenanceWindow, now: Date): boolean {
  return currentOpening(w, now.getTime()) !== null;
}

/**
 * `now` when the window is open, else the first instant after `now` when it opens: within a week, or
 * two when a week's only opening lies wholly in a DST gap. A caller waiting for it sleeps with
 * sleepUntil (runner/core/long-sleep.ts), which follows the wall clock across a suspend.
 */
export function nextOpening(w: MaintenanceWindow, now: Date): Date {
  const t = now.getTime();
  if (currentOpening(w, t)) return new Date(t);
  const today = wallDate(t, w.zone);
  // 15 days: an opening a DST gap swallowed comes back a week later (DST changes are months apart).
  for (let k = 0; k <= 15; k++) {
    const o = opening(w, today + k * DAY_MS);
    if (o && o.open > t) return new Date(o.open);
  }
  throw new Error(`window "${w.text}" never opens`); // unreachable: a window has a day, and a day opens weekly
}

/**
 * When the window open at `now` closes; null when it is closed. Openings that meet (Sat,Sun
 * 00:00-24:00) close together: the window closes when the last of them ends.
 */
export function closesAt(w: MaintenanceWindow, now: Date): Date | null {
  const current = currentOpening(w, now.getTime());
  if (!current) return null;
  let close = current.close;
  for (let day = current.day + DAY_MS; day <= current.day + 7 * DAY_MS; day += DAY_MS) {
    const next = opening(w, day);
    if (!next || next.open > close) break;
    close = Math.max(close, next.close);
  }
  return new Date(close);
}

/** `Sat, Sun 01:00-05:00 Asia/Shanghai`, `every day 23:00-02:00 (next day) UTC`, `... (the controller's local time)`. */
export function describeWindow(w: MaintenanceWindow): string {
  const days = w.days.length === 7 ? 'every day' : describeDays(w.days);
  const hhmm = (min: number) => `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;
  const nextDay = w.end <= w.start ? ' (next day)' : '';
  return `${days} ${hhmm(w.start)}-${hhmm(w.end)}${nextDay} ${w.zone ?? "(the controller's local time)"}`;
}

/** Monday first; three or more days in a row as a range: Mon-Fri, Sat, Sun. */
function describeDays(days: readonly number[]): string {
  const week = [1, 2, 3, 4, 5, 6, 0].filter((d) => days.includes(d));
  const runs: number[][] = [];
  for (const d of week) {
    const run = runs[runs.length - 1];
    if (run && (run[run.length - 1]! + 1) % 7 === d) run.push(d);
    else runs.push([d]);
  }
  return runs
    .flatMap((r) =>
      r.length >= 3 ? [`${SHOWN_DAYS[r[0]!]}-${SHOWN_DAYS[r[r.length - 1]!]}`] : r.map((d) => SHOWN_DAYS[d]!),
    )
    .join(', ');
}

interface Opening {
  /** The wall date it starts on, as UTC midnight of that date (ms). */
  day: number;
  open: number;
  close: number;
}

/** The opening that has `t` in it: one that started on t's wall date or the day before. */
function currentOpening(w: MaintenanceWindow, t: number): Opening | null {
  const today = wallDate(t, w.zone);
  for (const day of [today - DAY_MS, today]) {
    const o = opening(w, day);
    if (o && o.open <= t && t < o.close) return o;
  }
  return null;
}

/** The opening starting on wall date `day` (UTC midnight of it), if the window opens that day. */
function opening(w: MaintenanceWindow, day: number): Opening | null {
  if (!w.days.includes(new Date(day).getUTCDay())) return null;
  const open = instant(day + w.start * 60_000, w.zone);
  const close = instant(day + (w.end <= w.start ? w.end + 1440 : w.end) * 60_000, w.zone);
  return close > open ? { day, open, close } : null; // wholly inside a DST gap: no opening
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string | null): Intl.DateTimeFormat {
  const options: Intl.DateTimeFormatOptions = {
    timeZone: zone ?? undefined,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  };
  if (zone === null) return new Intl.DateTimeFormat('en-US', options); // TZ may change: not cached
  let f = formats.get(zone);
  if (!f) formats.set(zone, (f = new Intl.DateTimeFormat('en-US', options)));
  return f;
}

/** The wall clock at instant `t` in `zone`, as if it were UTC (ms, whole seconds). */
function wallClock(t: number, zone: string | null): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(new Date(t))) parts[p.type] = Number(p.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
}

const offsetAt = (t: number, zone: string | null): number => wallClock(t, zone) - Math.floor(t / 1000) * 1000;

/** t's wall date in `zone`, as UTC midnight of that date. */
const wallDate = (t: number, zone: string | null): number => Math.floor(wallClock(t, zone) / DAY_MS) * DAY_MS;

/**
 * The instant whose wall clock in `zone` is `wall` (wall-clock ms as if UTC): of two, the first (a
 * fall-back night); of none, the instant the gap ends (a spring-forward night).
 */
function instant(wall: number, zone: string | null): number {
  const before = offsetAt(wall - DAY_MS, zone);
  const after = offsetAt(wall + DAY_MS, zone);
  const fits = [wall - before, wall - after].filter((t) => offsetAt(t, zone) === wall - t);
  if (fits.length > 0) return Math.min(...fits);
  // In the gap: wall - after is still on the old offset, wall - before already on the new one.
  let lo = wall - after;
  let hi = wall - before;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (offsetAt(mid, zone) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}
