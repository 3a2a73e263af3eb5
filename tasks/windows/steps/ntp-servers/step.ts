// windows.ntpServers (docs/field-notes.md#a-time-zone-and-ntp): the values 1..n and (default) = 1 under
// HKLM:\SOFTWARE\Microsoft\Windows\CurrentVersion\DateTime\Servers, w32time automatic and running,
// `w32tm /config /manualpeerlist:"a b" /syncfromflags:MANUAL /update`, `w32tm /resync` (best effort).
// Fields: servers, default, peers, w32time (one call sets them all, in that order).
import { z } from 'zod';
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { describeValue, readOptions } from '../../../../runner/core/step-options.js';
import { invoke, probeCall } from '../../remote/calls.js';
import { NTP_SERVERS_REMOTE as REMOTE } from './remote.js';

const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?$/;

const OPTIONS = z.strictObject({
  servers: z
    .array(
      z.unknown().refine((v) => typeof v === 'string' && HOST.test(v), {
        error: (iss) => `must be a host name or IPv4 address, got ${describeValue(iss.input)}`,
      }),
      { error: (iss) => `must be an array of strings, got ${describeValue(iss.input)}` },
    )
    .min(1, { error: 'must list at least one NTP server' })
    .superRefine((list, ctx) => {
      const seen = new Set<string>();
      list.forEach((s, i) => {
        const key = String(s).toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `repeats ${String(s)}` });
        seen.add(key);
      });
    })
    .transform((list) => Object.freeze(list as string[])),
});

export type NtpServersOptions = { servers: readonly string[] };

export interface NtpServersDesired {
  readonly servers: readonly string[];
}

export type NtpActual = Readonly<z.output<(typeof REMOTE)['Get-PlayNtp']['result']>>;

/** w32tm writes the peer list as given, space separated; entries may carry flags (`ntp1,0x9`). */
function peers(list: string): string[] {
  return list
    .split(/\s+/)
    .filter(Boolean)
    .map((p) => p.replace(/,0x[0-9a-f]+$/i, '').toLowerCase());
}

function diffNtp(d: Readonly<NtpServersDesired>, a: NtpActual | null): Change {
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
  const desired: NtpServersDesired = Object.freeze(readOptions('windows.ntpServers', OPTIONS, options));
  const title = `NTP servers ${desired.servers.join(' ')}`;
  return Object.freeze({
    kind: 'windows.ntpServers',
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayNtp'], {}, (ntp) => ntp),
    diff: diffNtp,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, _actual: unknown, d: NtpServersDesired): Promise<void> {
      if (change.fields.length > 0)
        await invoke(remote, REMOTE['Set-PlayNtp'], { servers: [...d.servers] }, `${title}: w32tm /config`);
    },
  });
}
