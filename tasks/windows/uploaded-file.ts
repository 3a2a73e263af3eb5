// uploadedFile({ localFile, path }): a file on the machine running play (an update's .msu, hundreds of
// MB) is on the Windows host at path, byte for byte. Field: sha256. Output: { uploaded }.
//
// Streamed, never held in memory: the local file is hashed when the step is built (read in 1 MiB
// pieces) and sent in 1 MiB pieces (send-pieces.ts: why pieces, and how they are put in place).
// The probe compares SHA-256s only (Get-PlayFile with no content back): a host that already has the
// same file is not sent it again. An upload cut short leaves its temp file; the next apply starts
// over from offset 0 (Add-PlayFileChunk refuses to append to a file of the wrong length).
import { statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Change } from '../../runner/core/change.js';
import { NOOP } from '../../runner/core/change.js';
import { z } from 'zod';
import { nonEmpty, readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { probeCall } from './remote/calls.js';
import { readFileActual, type FileContentActual } from './file-content.js';
import { GET_FILE } from './remote/ps-files.js';
import { pieces, sendPieces } from './send-pieces.js';
import { checked, type Refuse } from './options/checked.js';
import { windowsPath } from './options/win-options.js';

export interface UploadedFileOutputs {
  uploaded: boolean;
}

const KIND = 'windows.uploadedFile';
export { UPLOAD_CHUNK } from './send-pieces.js';

/** What a local file is: its size and SHA-256, read once per file version (a 300 MB .msu is hashed
 *  once per run, not once per host the step is built for). */
const facts = new Map<string, { size: number; sha256: string }>();

/** The local file's size and SHA-256; a missing or unreadable file, or a directory, is refused. */
function localFileFacts(file: string, refuse: Refuse): { size: number; sha256: string } {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e;
    return refuse(`cannot read ${file} (${code})`);
  }
  if (!st.isFile()) return refuse(`${file} is not a file`);
  const key = `${file}\0${st.size}\0${st.mtimeMs}`;
  let f = facts.get(key);
  if (!f) {
    const h = createHash('sha256');
    for (const { piece } of pieces(file)) h.update(piece);
    f = { size: st.size, sha256: h.digest('hex') };
    facts.set(key, f);
  }
  return f;
}

/** A file on the machine running play, with its size and SHA-256 (read when the step is built). */
export const localFile = () =>
  checked(nonEmpty(), (file: string, refuse: Refuse) => ({ localFile: file, ...localFileFacts(file, refuse) }));

const Options = z
  .strictObject({
    /** The file on the machine running play. */
    localFile: localFile(),
    /** Where it goes on the host, e.g. C:\Users\Administrator\Downloads\windows10.0-kb4551853-x64.msu */
    path: windowsPath(),
  })
  .transform(({ localFile: local, path }) => ({
    localFile: local.localFile,
    path,
    sha256: local.sha256,
    size: local.size,
  }));

export type UploadedFileOptions = z.input<typeof Options>;
export type UploadedFileDesired = Readonly<z.output<typeof Options>>;

/** Sends the local file to path on the host, one piece in memory at a time. */
export function sendFile(
  remote: Remote,
  file: { localFile: string; path: string; sha256: string },
  title: string,
): Promise<void> {
  return sendPieces(remote, { path: file.path, sha256: file.sha256 }, pieces(file.localFile), title);
}

export function diffUploadedFile(d: Readonly<UploadedFileDesired>, a: FileContentActual | null): Change {
  if (a !== null && a.sha256 === d.sha256) return NOOP;
  const show = (x: { size: number; sha256: string }) => `${x.size} bytes, sha256 ${x.sha256.slice(0, 12)}`;
  return {
    action: a === null ? 'create' : 'update',
    fields: ['sha256'],
    before: { sha256: a === null ? null : show(a) },
    after: { sha256: show(d) },
  };
}

export function uploadedFile(
  options: UploadedFileOptions,
): Step<UploadedFileDesired, FileContentActual, UploadedFileOutputs> {
  const desired: UploadedFileDesired = Object.freeze(readOptions(KIND, Options, options));
  const { path } = desired;
  const title = `uploaded file ${path}`;
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_FILE, { path, maxBytes: 0 }, readFileActual),
    diff: diffUploadedFile,
    async apply(
      remote: Remote,
      change: Change,
      _actual: FileContentActual | null,
      d: UploadedFileDesired,
    ): Promise<UploadedFileOutputs> {
      if (!change.fields.includes('sha256')) return { uploaded: false };
      await sendFile(remote, d, title);
      return { uploaded: true };
    },
    outputs: (): UploadedFileOutputs => ({ uploaded: false }),
  });
}
