// uploadedFile({ localFile, path }): a file on the machine running play (an update's .msu, hundreds of
// MB) is on the Windows host at path, byte for byte. Field: sha256. Output: { uploaded }.
//
// Streamed, never held in memory: the local file is hashed when the step is built (read in 1 MiB
// pieces) and sent in 1 MiB pieces, each its own PowerShell call appending to a temp file beside
// the destination (Add-PlayFileChunk); the last call (Complete-PlayUpload) checks the temp file's
// SHA-256 against the local one and moves it into place, so the destination is never a partial file.
// The probe compares SHA-256s only (Get-PlayFile with no content back): a host that already has the
// same file is not sent it again. A piece is 1 MiB because a call travels as JSON that Windows
// PowerShell 5.1 reads with ConvertFrom-Json, whose JavaScriptSerializer refuses input over 2,097,152
// characters (a MiB is 1,398,104 in base64). An upload cut short leaves its temp file; the next
// apply starts over from offset 0 (Add-PlayFileChunk refuses to append to a file of the wrong length).
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { Change } from '../../runner/core/change.js';
import { NOOP } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import { readFileActual, type FileContentActual } from './file-content.js';
import { ADD_FILE_CHUNK, COMPLETE_UPLOAD, GET_FILE } from './remote/ps-files.js';
import { windowsPath } from './options/win-options.js';

export type UploadedFileOptions = {
  /** The file on the machine running play. */
  localFile: string;
  /** Where it goes on the host, e.g. C:\Users\Administrator\Downloads\windows10.0-kb4551853-x64.msu */
  path: string;
};

export interface UploadedFileDesired {
  readonly localFile: string;
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

export interface UploadedFileOutputs {
  uploaded: boolean;
}

const KIND = 'windows.uploadedFile';
/** Bytes per call (see the header: ConvertFrom-Json's limit in Windows PowerShell 5.1). */
export const UPLOAD_CHUNK = 1024 * 1024;

/**
 * The file's successive pieces, read into one reused buffer (use each before taking the next): memory
 * stays at one piece. The last piece is the first one shorter than UPLOAD_CHUNK, so an empty file is
 * one empty piece and a file of whole pieces ends with an empty one.
 */
export function* pieces(file: string): Generator<{ piece: Buffer; offset: number }> {
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(UPLOAD_CHUNK);
  try {
    for (let offset = 0; ; ) {
      const n = readSync(fd, buf, 0, UPLOAD_CHUNK, offset);
      yield { piece: buf.subarray(0, n), offset };
      if (n < UPLOAD_CHUNK) return;
      offset += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** What a local file is: its size and SHA-256, read once per file version (a 300 MB .msu is hashed
 *  once per run, not once per host the step is built for). */
const facts = new Map<string, { size: number; sha256: string }>();

/** The local file's size and SHA-256; a missing or unreadable file, or a directory, fails the option. */
export function localFileFacts(r: OptionReader, field: string, file: string): { size: number; sha256: string } {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === undefined) throw e;
    return r.fail(field, `cannot read ${file} (${code})`);
  }
  if (!st.isFile()) return r.fail(field, `${file} is not a file`);
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

/**
 * Sends the local file to path on the host: pieces appended to a temp file beside it, then checked
 * and moved into place (Complete-PlayUpload). One piece in memory at a time.
 */
export async function sendFile(
  remote: Remote,
  file: { localFile: string; path: string; sha256: string },
  title: string,
): Promise<void> {
  const tempPath = `${file.path}.play-upload`;
  for (const { piece, offset } of pieces(file.localFile)) {
    await invoke(
      remote,
      ADD_FILE_CHUNK,
      { path: tempPath, offset, contentBase64: piece.toString('base64') },
      `${title}: Add-PlayFileChunk at ${offset}`,
    );
  }
  await invoke(
    remote,
    COMPLETE_UPLOAD,
    { tempPath, path: file.path, sha256: file.sha256 },
    `${title}: Complete-PlayUpload`,
  );
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
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['localFile', 'path']);
  const localFile = r.nonEmpty('localFile');
  const path = windowsPath(r, 'path');
  const { size, sha256 } = localFileFacts(r, 'localFile', localFile);
  const desired: UploadedFileDesired = Object.freeze({ localFile, path, sha256, size });
  const title = `uploaded file ${path}`;
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_FILE, { path, maxBytes: 0 }, readFileActual),
    diff: diffUploadedFile,
    async apply(remote: Remote, change: Change): Promise<UploadedFileOutputs> {
      if (!change.fields.includes('sha256')) return { uploaded: false };
      await sendFile(remote, desired, title);
      return { uploaded: true };
    },
    outputs: (): UploadedFileOutputs => ({ uploaded: false }),
  });
}
