// A host's ssh_config values as the connection fields play honours, with what ssh would refuse
// reported as problems and what play does differently reported as warnings, each naming the file and
// line. The inventory's own connection vars are applied first by the caller: these fill what they left.
import type { IdentityFile } from '../inventory/model.js';
import type { Origin, Reporter } from '../inventory/source.js';
import type { Note, Setting, SshHostConfig } from './config.js';

export interface HostFields {
  knownHostsFile?: string;
  identityFiles?: readonly IdentityFile[];
  identitiesOnly?: boolean;
  acceptNew?: boolean;
  connectTimeoutSec?: number;
  serverAliveIntervalSec?: number;
  serverAliveCountMax?: number;
}

export const originOf = (at: Note['at']): Origin => ({ file: at.file, path: '', line: at.line });
export const whereOf = (s: Setting<unknown>) => `${s.at.file}:${s.at.line}`;

/** Problems and warnings of the host's pass over its config files, to `src`. */
export function reportNotes(src: Reporter, c: SshHostConfig): void {
  for (const p of c.problems) src.problem(originOf(p.at), p.detail);
  for (const w of c.warnings) src.warn(originOf(w.at), w.detail);
}

/** The host's IdentityFiles but `except` (the inventory's key, tried first anyway) and `none` (ssh skips it). */
export function identityFilesOf(c: SshHostConfig, except?: string): IdentityFile[] {
  return c.identityFiles
    .filter((s) => s.value !== except && s.value.toLowerCase() !== 'none')
    .map((s) => ({ file: s.value, from: whereOf(s) }));
}

/** The fields of `c` that play honours beyond host, port, user and jump (which the caller merges). */
export function hostFields(src: Reporter, c: SshHostConfig, keyFile: string | undefined): HostFields {
  const f: HostFields = {};
  const known = c.userKnownHostsFiles;
  if (known) {
    const [first, ...rest] = known.value;
    if (first === undefined || first.toLowerCase() === 'none')
      src.warn(
        originOf(known.at),
        'UserKnownHostsFile none: play always checks host keys against a known_hosts file; using the default one',
      );
    else {
      f.knownHostsFile = first;
      if (rest.length)
        src.warn(
          originOf(known.at),
          `UserKnownHostsFile: play reads one known_hosts file, the first (${first}); not read: ${rest.join(' ')}`,
        );
    }
  }
  const ids = identityFilesOf(c, keyFile);
  if (ids.length) f.identityFiles = ids;
  if (c.identitiesOnly?.value) f.identitiesOnly = true;
  const strict = c.strictHostKeyChecking;
  if (strict?.value === 'accept-new') f.acceptNew = true;
  if (strict?.value === 'no') {
    src.warn(
      originOf(strict.at),
      'StrictHostKeyChecking no: play never accepts a changed host key; it records unknown ones (accept-new)',
    );
    f.acceptNew = true;
  }
  // ConnectTimeout 0 is ssh's "no timeout of its own": play keeps its default.
  if (c.connectTimeout?.value) f.connectTimeoutSec = c.connectTimeout.value;
  if (c.serverAliveInterval) f.serverAliveIntervalSec = c.serverAliveInterval.value;
  if (c.serverAliveCountMax) f.serverAliveCountMax = c.serverAliveCountMax.value;
  return f;
}
