// How much drift history a run keeps (--keep): days (`90d`, the default) or a number of runs.
import { UsageError } from '../../core/errors.js';

export function parseKeep(text: string | undefined, now: Date): { olderThan?: Date; keepCount?: number } {
  if (text === undefined) return { olderThan: new Date(now.getTime() - 90 * 86_400_000) };
  const days = /^(\d+)d$/.exec(text);
  if (days) return { olderThan: new Date(now.getTime() - Number(days[1]) * 86_400_000) };
  if (/^\d+$/.test(text) && Number(text) >= 1) return { keepCount: Number(text) };
  throw new UsageError(`--keep '${text}': expected a number of days like 90d, or a number of runs like 500`);
}
