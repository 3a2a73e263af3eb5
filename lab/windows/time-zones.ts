// The time zones the simulated node knows (a subset of `tzutil /l` on Windows Server 2019): id,
// display name and standard offset. Set-TimeZone -Id matches an id case-insensitively, as
// TimeZoneInfo.FindSystemTimeZoneById does on Windows.

export interface TimeZoneRecord {
  id: string;
  displayName: string;
  standardName: string;
  daylightName: string;
  /** Minutes east of UTC, without daylight saving. */
  offsetMinutes: number;
}

const ZONES: readonly [id: string, display: string, offsetMinutes: number][] = [
  ['UTC', '(UTC) Coordinated Universal Time', 0],
  ['Dateline Standard Time', '(UTC-12:00) International Date Line West', -720],
  ['Pacific Standard Time', '(UTC-08:00) Pacific Time (US & Canada)', -480],
  ['Mountain Standard Time', '(UTC-07:00) Mountain Time (US & Canada)', -420],
  ['Central Standard Time', '(UTC-06:00) Central Time (US & Canada)', -360],
  ['Eastern Standard Time', '(UTC-05:00) Eastern Time (US & Canada)', -300],
  ['E. South America Standard Time', '(UTC-03:00) Brasilia', -180],
  ['Greenwich Standard Time', '(UTC+00:00) Monrovia, Reykjavik', 0],
  ['GMT Standard Time', '(UTC+00:00) Dublin, Edinburgh, Lisbon, London', 0],
  ['W. Europe Standard Time', '(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna', 60],
  ['Central Europe Standard Time', '(UTC+01:00) Belgrade, Bratislava, Budapest, Ljubljana, Prague', 60],
  ['Romance Standard Time', '(UTC+01:00) Brussels, Copenhagen, Madrid, Paris', 60],
  ['Russian Standard Time', '(UTC+03:00) Moscow, St. Petersburg', 180],
  ['India Standard Time', '(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi', 330],
  ['China Standard Time', '(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi', 480],
  ['Singapore Standard Time', '(UTC+08:00) Kuala Lumpur, Singapore', 480],
  ['Taipei Standard Time', '(UTC+08:00) Taipei', 480],
  ['Tokyo Standard Time', '(UTC+09:00) Osaka, Sapporo, Tokyo', 540],
  ['Korea Standard Time', '(UTC+09:00) Seoul', 540],
  ['AUS Eastern Standard Time', '(UTC+10:00) Canberra, Melbourne, Sydney', 600],
];

export const TIME_ZONES: readonly TimeZoneRecord[] = ZONES.map(([id, displayName, offsetMinutes]) => ({
  id,
  displayName,
  standardName: id === 'UTC' ? 'Coordinated Universal Time' : id,
  daylightName: id === 'UTC' ? 'Coordinated Universal Time' : id.replace('Standard Time', 'Daylight Time'),
  offsetMinutes,
}));

export function findTimeZone(id: string): TimeZoneRecord | undefined {
  return TIME_ZONES.find((z) => z.id.toLowerCase() === id.toLowerCase());
}
