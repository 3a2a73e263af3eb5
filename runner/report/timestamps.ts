// A timestamp on every line: what a log without a terminal needs (CI, `| tee`, --log). A stream that
// stamps each complete line written to it and passes it on; a partial line waits for its end.
import { Writable } from 'node:stream';

const two = (n: number) => String(n).padStart(2, '0');

/** `14:03:07`: local time of day, for the console. */
export function timeOfDay(d: Date): string {
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

/** `2026-05-01T14:03:07.123Z`: for a log file, where runs span days. */
export function isoTime(d: Date): string {
  return d.toISOString();
}

/** The lines of `text` (complete ones), each prefixed with `stamp `; the unfinished rest is returned. */
export function stampLines(pending: string, text: string, stamp: string): { stamped: string; rest: string } {
  const all = pending + text;
  const end = all.lastIndexOf('\n');
  if (end < 0) return { stamped: '', rest: all };
  const lines = all.slice(0, end).split('\n');
  return { stamped: lines.map((l) => `${stamp} ${l}\n`).join(''), rest: all.slice(end + 1) };
}

/** A stream that writes to `target` with `format(now())` before each line. */
export function stampedStream(
  target: Writable,
  format: (d: Date) => string,
  now: () => Date = () => new Date(),
): Writable {
  let rest = '';
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const r = stampLines(rest, chunk.toString(), format(now()));
      rest = r.rest;
      if (r.stamped) target.write(r.stamped);
      done();
    },
    final(done) {
      if (rest) target.write(`${format(now())} ${rest}\n`);
      rest = '';
      done();
    },
  });
}
