// Time zone, NTP and Windows Update settings on the simulated Windows node (a test double). NTP
// lives where Windows keeps it: DateTime\Servers values 1..n and (default), W32Time's NtpServer and
// Type, the W32Time service; Set-PlayNtp makes W32Time automatic and running. Auto-update is the
// AU policy key's NoAutoUpdate, written between a stop and a start of wuauserv.
import type { ServiceStartMode } from '../../../tasks/windows/contract.js';
import { WindowsError } from '../errors.js';
import { deleteValue, getKey, getValue, setValue } from '../registry-store.js';
import { findService, startService, stopService } from '../services.js';
import type { Handlers } from './types.js';

export const SERVERS_KEY = 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers';
export const W32TIME_KEY = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\W32Time\\Parameters';
export const AU_KEY = 'HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU';

/** Time zone ids the simulated node knows (a subset of `tzutil /l`). */
export const TIME_ZONES = [
  'UTC',
  'Dateline Standard Time',
  'Pacific Standard Time',
  'Mountain Standard Time',
  'Central Standard Time',
  'Eastern Standard Time',
  'E. South America Standard Time',
  'Greenwich Standard Time',
  'GMT Standard Time',
  'W. Europe Standard Time',
  'Central Europe Standard Time',
  'Romance Standard Time',
  'Russian Standard Time',
  'India Standard Time',
  'China Standard Time',
  'Singapore Standard Time',
  'Taipei Standard Time',
  'Tokyo Standard Time',
  'Korea Standard Time',
  'AUS Eastern Standard Time',
];

function dword(node: Parameters<Handlers['Get-PlayAutoUpdate']>[0], name: string): number | null {
  const v = getValue(node.state, AU_KEY, name);
  return v && typeof v.data === 'number' ? v.data : null;
}

export const timeHandlers = {
  'Get-PlayTimeZone': (node) => ({ id: node.state.timeZone }),

  'Set-PlayTimeZone': (node, { id }) => {
    const known = TIME_ZONES.find((z) => z.toLowerCase() === id.toLowerCase());
    if (!known) throw new WindowsError(`The time zone ID '${id}' was not found on the local computer.`);
    node.state.timeZone = known;
    return {};
  },

  'Get-PlayNtp': (node) => {
    const s = node.state;
    // Values 1, 2, ... up to the first missing one; Type as w32tm stores it (NTP for /syncfromflags:MANUAL).
    const servers: string[] = [];
    for (let i = 1; getValue(s, SERVERS_KEY, String(i)); i++)
      servers.push(String(getValue(s, SERVERS_KEY, String(i))!.data));
    const dflt = getValue(s, SERVERS_KEY, '(default)');
    return {
      servers,
      defaultIndex: dflt ? String(dflt.data) : null,
      manualPeerList: String(getValue(s, W32TIME_KEY, 'NtpServer')?.data ?? ''),
      syncFromFlags: String(getValue(s, W32TIME_KEY, 'Type')?.data ?? ''),
      w32timeStartMode: (findService(s, 'W32Time')?.startMode ?? 'Manual') as ServiceStartMode,
    };
  },

  'Set-PlayNtp': (node, { servers }) => {
    const s = node.state;
    for (const [i, server] of servers.entries()) setValue(s, SERVERS_KEY, String(i + 1), 'String', server);
    for (const v of Object.values(getKey(s, SERVERS_KEY)?.values ?? {})) {
      if (/^\d+$/.test(v.name) && Number(v.name) > servers.length) deleteValue(s, SERVERS_KEY, v.name);
    }
    setValue(s, SERVERS_KEY, '(default)', 'String', '1');
    const w32 = findService(s, 'W32Time');
    if (w32) w32.startMode = 'Auto';
    startService(s, 'W32Time');
    // w32tm /config /manualpeerlist:"a b" /syncfromflags:MANUAL /update
    setValue(s, W32TIME_KEY, 'NtpServer', 'String', servers.join(' '));
    setValue(s, W32TIME_KEY, 'Type', 'String', 'NTP');
    return {};
  },

  'Get-PlayAutoUpdate': (node) => ({ noAutoUpdate: dword(node, 'NoAutoUpdate'), auOptions: dword(node, 'AUOptions') }),

  'Set-PlayAutoUpdate': (node, { enabled }) => {
    const s = node.state;
    stopService(s, 'wuauserv');
    setValue(s, AU_KEY, 'NoAutoUpdate', 'DWord', enabled ? 0 : 1);
    startService(s, 'wuauserv');
    return {};
  },
} satisfies Partial<Handlers>;
