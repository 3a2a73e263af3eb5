// A line written before a run's view exists (the inventory it works on), stamped as the view's lines
// will be: the view stamps every line unless it is the live one, which only a terminal gets
// (run-output.ts). Pure: the clock is an argument.
import { stampLines, timeOfDay } from './timestamps.js';

/**
 * `text` (complete lines) as the console shows it: each line with the time of day, unless the console
 * is a terminal and the run may show the live view there (no -v, not a rolling run, live not turned off).
 */
export function headerLine(text: string, o: { terminal: boolean; mayBeLive: boolean }, now: Date): string {
  if (o.terminal && o.mayBeLive) return text;
  return stampLines('', text, timeOfDay(now)).stamped;
}
