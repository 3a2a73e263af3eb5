// windows.timeZone (docs/field-notes.md#a-time-zone-and-ntp): the node's time zone,
// `Set-TimeZone -Id "China Standard Time"`. Field: id.
import { z } from 'zod';
import { NOOP, type Change } from '../../../../runner/core/change.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { describeValue, readOptions } from '../../../../runner/core/step-options.js';
import { invoke, probeCall } from '../../remote/calls.js';
import { TIME_ZONE_REMOTE as REMOTE } from './remote.js';

const OPTIONS = z.strictObject({
  id: z.string().refine((v) => /^[A-Za-z0-9][A-Za-z0-9 .()+-]{0,63}$/.test(v), {
    error: (iss) =>
      `must be a Windows time zone id such as China Standard Time or UTC (see Get-TimeZone -ListAvailable), got ${describeValue(iss.input)}`,
  }),
});

export type TimeZoneOptions = z.input<typeof OPTIONS>;

export interface TimeZoneDesired {
  readonly id: string;
}

function diffTimeZone(d: Readonly<TimeZoneDesired>, a: TimeZoneDesired | null): Change {
  if (a === null) throw new Error('a time zone probe always reports one');
  return a.id === d.id ? NOOP : { action: 'update', fields: ['id'], before: { id: a.id }, after: { id: d.id } };
}

export function timeZone(options: TimeZoneOptions): Step<TimeZoneDesired, TimeZoneDesired> {
  const desired: TimeZoneDesired = Object.freeze(readOptions('windows.timeZone', OPTIONS, options));
  const title = `time zone ${desired.id}`;
  return Object.freeze({
    kind: 'windows.timeZone',
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayTimeZone'], {}, (zone) => zone),
    diff: diffTimeZone,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, _actual: unknown, d: TimeZoneDesired): Promise<void> {
      if (change.fields.includes('id'))
        await invoke(remote, REMOTE['Set-PlayTimeZone'], { id: d.id }, `${title}: Set-TimeZone`);
    },
  });
}
