// The node's time zone as Get-TimeZone and Set-TimeZone see it (mock/System.psm1). An id Windows
// does not know fails as TimeZoneInfo.FindSystemTimeZoneById does.
import { WindowsError } from '../errors.js';
import { findTimeZone, TIME_ZONES, type TimeZoneRecord } from '../time-zones.js';
import { type Ops, str } from './types.js';

/** A zone id saved by an older simulator that this table lacks still reads back as itself. */
function zoneOf(id: string): TimeZoneRecord {
  return findTimeZone(id) ?? { id, displayName: id, standardName: id, daylightName: id, offsetMinutes: 0 };
}

export const timeOps: Ops = {
  'TimeZone.Get': (node) => ({ ...zoneOf(node.state.timeZone) }),

  'TimeZone.List': () => TIME_ZONES.map((z) => ({ ...z })),

  'TimeZone.Set': (node, a) => {
    const id = str(a, 'id');
    const zone = findTimeZone(id);
    if (!zone) throw new WindowsError(`The time zone ID '${id}' was not found on the local computer.`);
    node.state.timeZone = zone.id;
    return { ...zone };
  },
};
