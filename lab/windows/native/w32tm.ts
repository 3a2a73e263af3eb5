// w32tm.exe on the simulated node (docs/field-notes.md#a-time-zone-and-ntp): `/config` with
// /manualpeerlist, /syncfromflags, /reliable and /update, and `/resync`. The configuration lives
// where Windows Time keeps it, W32Time\Parameters NtpServer and Type (MANUAL is stored as NTP).
// Talking to the service needs it running; otherwise w32tm prints the service's error and exits
// with its HRESULT. The node's NTP peers are taken to answer: a resync with W32Time running succeeds.
import { setValue } from '../registry-store.js';
import { findService } from '../services.js';
import type { NodeState } from '../node-state.js';
import { crlf, type NativeProgram, type NativeResult } from './program.js';

export const W32TIME_PARAMETERS = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\W32Time\\Parameters';
const W32TIME_CONFIG = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\W32Time\\Config';

const OK = 'The command completed successfully.';
const RESYNC = 'Sending resync command to local computer';

/** w32tm's failure line and exit code (the HRESULT, as a signed 32-bit process exit code). */
function failure(hresult: number, text: string, before: string[] = []): NativeResult {
  const hex = `0x${hresult.toString(16).toUpperCase().padStart(8, '0')}`;
  return { code: hresult | 0, stdout: crlf([...before, `The following error occurred: ${text} (${hex})`]) };
}

const NOT_STARTED = (before?: string[]) => failure(0x80070426, 'The service has not been started.', before);
const BAD_PARAMETER = () => failure(0x80070057, 'The parameter is incorrect.');

/** /syncfromflags values as W32Time\Parameters Type stores them. */
function syncType(flags: string): string | null {
  const set = new Set(
    flags
      .toUpperCase()
      .split(',')
      .map((f) => f.trim()),
  );
  if (set.size === 1 && set.has('NO')) return 'NoSync';
  if ([...set].some((f) => f !== 'MANUAL' && f !== 'DOMHIER')) return null;
  if (set.has('MANUAL') && set.has('DOMHIER')) return 'AllSync';
  return set.has('MANUAL') ? 'NTP' : 'NT5DS';
}

function running(s: NodeState): boolean {
  return findService(s, 'W32Time')?.state === 'Running';
}

function config(s: NodeState, options: readonly string[]): NativeResult {
  const writes: [key: string, name: string, type: 'String' | 'DWord', data: string | number][] = [];
  let update = false;
  for (const option of options) {
    const m = /^[/-]([a-z]+)(?::(.*))?$/is.exec(option);
    const name = m?.[1]?.toLowerCase();
    const value = m?.[2];
    if (name === 'update' && value === undefined) update = true;
    else if (name === 'manualpeerlist' && value !== undefined)
      writes.push([W32TIME_PARAMETERS, 'NtpServer', 'String', value]);
    else if (name === 'syncfromflags' && value !== undefined) {
      const type = syncType(value);
      if (type === null) return BAD_PARAMETER();
      writes.push([W32TIME_PARAMETERS, 'Type', 'String', type]);
    } else if (name === 'reliable' && value !== undefined && /^(yes|no)$/i.test(value)) {
      writes.push([W32TIME_CONFIG, 'AnnounceFlags', 'DWord', /^yes$/i.test(value) ? 5 : 10]);
    } else return BAD_PARAMETER();
  }
  if (update && !running(s)) return NOT_STARTED();
  for (const [key, name, type, data] of writes) setValue(s, key, name, type, data);
  return { code: 0, stdout: crlf([OK]) };
}

export const w32tm: NativeProgram = (node, argv) => {
  const [verb = '', ...rest] = argv;
  switch (verb.toLowerCase()) {
    case '/config':
    case '-config':
      return config(node.state, rest);
    case '/resync':
    case '-resync':
      if (!running(node.state)) return NOT_STARTED([RESYNC]);
      return { code: 0, stdout: crlf([RESYNC, OK]) };
    default:
      throw new Error(`the simulated w32tm.exe does not model '${verb}' (lab/windows/native/w32tm.ts)`);
  }
};
