// Option values as typed on the command line, checked once for every command (yargs' `coerce`): a
// mistake is a UsageError (64) quoting the value as written.
import { UsageError } from '../core/errors.js';
import { MAX_WAIT_SEC } from '../core/long-sleep.js';

/** yargs gives the last of a repeated option as an array: the last one wins, as in ansible. */
export const last = (v: unknown): string => String(Array.isArray(v) ? v[v.length - 1] : v).trim();

/** A lab count: a whole number as typed (the lab checks its range). */
export function count(flag: string) {
  return (v: unknown): number => {
    const text = last(v);
    if (!/^[-+]?\d+$/.test(text)) throw new UsageError(`${flag} '${text}': expected a whole number`);
    return Number(text);
  };
}

export function positiveInteger(flag: string) {
  return (v: unknown): number => {
    const text = last(v);
    if (!/^\+?\d+$/.test(text) || Number(text) < 1)
      throw new UsageError(`${flag} '${text}': expected a positive whole number`);
    return Number(text);
  };
}

export function positiveNumber(flag: string) {
  return (v: unknown): number => {
    const text = last(v),
      n = Number(text);
    if (!text || !Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} '${text}': expected a positive number`);
    return n;
  };
}

/** An option without a default: absent stays undefined, present must be a positive whole number. */
export function optionalPositiveInteger(flag: string) {
  const check = positiveInteger(flag);
  return (v: unknown): number | undefined => (v === undefined ? undefined : check(v));
}

/** Seconds that may be 0 (--soak 0: no soak). */
export function optionalNonNegativeNumber(flag: string) {
  return (v: unknown): number | undefined => {
    if (v === undefined) return undefined;
    const text = last(v),
      n = Number(text);
    if (!text || !Number.isFinite(n) || n < 0)
      throw new UsageError(`${flag} '${text}': expected a number of seconds, 0 or more`);
    return n;
  };
}

/**
 * `parse`, then at most MAX_WAIT_SEC (7 days): for --timeout, --soak, --drain-timeout and --ready-timeout.
 * A longer wait is almost certainly a typo (a value in ms), and play's timers are tested up to it.
 */
export function atMostAWeek<T extends number | undefined>(flag: string, parse: (v: unknown) => T) {
  return (v: unknown): T => {
    const seconds = parse(v);
    if (seconds !== undefined && seconds > MAX_WAIT_SEC) {
      throw new UsageError(`${flag} '${last(v)}': expected at most ${MAX_WAIT_SEC} seconds (7 days)`);
    }
    return seconds;
  };
}

/** The command-line flag of an option's camelCase key: maxPerDomain -> --max-per-domain. */
export const flagOf = (key: string): string => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
