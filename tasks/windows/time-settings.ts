// The node's clock settings (docs/field-notes.md#a-time-zone-and-ntp):
//   timeZone({ id })         Set-TimeZone -Id "China Standard Time". Field: id.
//   ntpServers({ servers })  the values 1..n and (default) = 1 under
//                            HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\DateTime\Servers, w32time
//                            automatic and running, `w32tm /config /manualpeerlist:"a b" /syncfromflags:MANUAL
//                            /update`, `w32tm /resync` (best effort). Fields: servers, default,
//                            peers, w32time (one call sets them all, in that order).
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_NTP, GET_TIME_ZONE, SET_NTP, SET_TIME_ZONE } from './remote/ps-system.js';
import { matching, stringList } from './options/win-options.js';

export type TimeZoneOptions = { id: string };

export interface TimeZoneDesired {
  readonly id: string;
}

export function diffTimeZone(d: Readonly<TimeZoneDesired>, a: TimeZoneDesired | null): Change {
  if (a === null) throw new Error('a time zone probe always reports one');
  return a.id === d.id ? NOOP : { action: 'update', fields: ['id'], before: { id: a.id }, after: { id: d.id } };
}

export function timeZone(options: TimeZoneOptions): Step<TimeZoneDesired, TimeZoneDesired> {
  const r: OptionReader = new OptionReader('windows.timeZone', options as Options);
  r.only(['id']);
  const id = matching(
    r,
    'id',
    /^[A-Za-z0-9][A-Za-z0-9 .()+-]{0,63}$/,
    'a Windows time zone id such as China Standard Time or UTC (see Get-TimeZone -ListAvailable)',
  );
  const desired: TimeZoneDesired = Object.freeze({ id });
  const title = `time zone ${id}`;
  return Object.freeze({
    kind: 'windows.timeZone',
    title,
    desired,
    probe: () => probeCall(GET_TIME_ZONE, {}, (zone) => zone),
    diff: diffTimeZone,
    async apply(remote: Remote, change: Change): Promise<void> {
      if (change.fields.includes('id')) await invoke(remote, SET_TIME_ZONE, { id }, `${title}: Set-TimeZone`);
    },
  });
}

export type NtpServersOptions = { servers: readonly string[] };

export interface NtpServersDesired {
  readonly servers: readonly string[];
}

export type NtpActual = Readonly<ResultOf<'Get-PlayNtp'>>;

/** w32tm writes the peer list as given, space separated; entries may carry flags (`ntp1,0x9`). */
function peers(list: string): string[] {
  return list
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => p.replace(/,0x[0-9a-f]+$/i, '').toLowerCase());
}

export function diffNtp(d: Readonly<NtpServersDesired>, a: NtpActual | null): Change {
  if (a === null) throw new Error('an NTP probe always reports a state');
  const fields: string[] = [];
  const before: Fields = {},
    after: Fields = {};
  if (a.servers.join(' ') !== d.servers.join(' ')) {
    fields.push('servers');
    before.servers = [...a.servers];
    after.servers = [...d.servers];
  }
  if (a.defaultIndex !== '1') {
    fields.push('default');
    before.default = a.defaultIndex;
    after.default = '1';
  }
  const wanted = d.servers.map((s) => s.toLowerCase()).join(' ');
  if (peers(a.manualPeerList).join(' ') !== wanted || a.syncFromFlags.toUpperCase() !== 'NTP') {
    fields.push('peers');
    before.peers = `${a.manualPeerList || '(none)'}, type ${a.syncFromFlags || '(unset)'}`;
    after.peers = `${d.servers.join(' ')}, type NTP (syncfromflags:MANUAL)`;
  }
  if (a.w32timeStartMode !== 'Auto' || !a.w32timeRunning) {
    fields.push('w32time');
    before.w32time = `${a.w32timeStartMode}, ${a.w32timeRunning ? 'running' : 'stopped'}`;
    after.w32time = 'Auto, running';
  }
  return fields.length === 0 ? NOOP : { action: 'update', fields, before, after };
}

export function ntpServers(options: NtpServersOptions): Step<NtpServersDesired, NtpActual> {
  const r: OptionReader = new OptionReader('windows.ntpServers', options as Options);
  r.only(['servers']);
  const servers = stringList(r, 'servers', (v, at) => {
    if (typeof v !== 'string' || !/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$/.test(v))
      r.fail(at, `must be a host name or IPv4 address, got ${JSON.stringify(v)}`);
    return v;
  });
  if (servers === undefined || servers.length === 0) r.fail('servers', 'must list at least one NTP server');
  const seen = new Set<string>();
  servers.forEach((s, i) => {
    if (seen.has(s.toLowerCase())) r.fail(`servers[${i}]`, `repeats ${s}`);
    seen.add(s.toLowerCase());
  });
  const desired: NtpServersDesired = Object.freeze({ servers: Object.freeze(servers) });
  const title = `NTP servers ${servers.join(' ')}`;
  return Object.freeze({
    kind: 'windows.ntpServers',
    title,
    desired,
    probe: () => probeCall(GET_NTP, {}, (ntp) => ntp),
    diff: diffNtp,
    async apply(remote: Remote, change: Change): Promise<void> {
      if (change.fields.length > 0) await invoke(remote, SET_NTP, { servers: [...servers] }, `${title}: w32tm /config`);
    },
  });
}
