// Bytes sent to a Windows host in pieces, because of Windows PowerShell 5.1: a program's calls travel
// as one JSON literal read with ConvertFrom-Json, whose JavaScriptSerializer refuses input over
// 2,097,152 characters (a MiB is 1,398,104 in base64). Each piece is its own call appending to a temp
// file beside the destination (Add-PlayFileChunk); the last call (Complete-PlayUpload) checks the temp
// file's SHA-256 and moves it into place, so the destination is never a partial file. Used by
// uploadedFile (a local file streamed, one piece in memory) and fileContent (content over one piece).
import { closeSync, openSync, readSync } from 'node:fs';
import type { Remote } from '../../runner/core/step.js';
import { Secret } from '../../runner/core/secret.js';
import { invoke } from './remote/calls.js';
import { ADD_FILE_CHUNK, COMPLETE_UPLOAD } from './remote/ps-files.js';

/** Bytes per call (see the header: ConvertFrom-Json's limit in Windows PowerShell 5.1). */
export const UPLOAD_CHUNK = 1024 * 1024;

export type Piece = { piece: Buffer; offset: number };

/**
 * A local file's successive pieces, read into one reused buffer (use each before taking the next):
 * memory stays at one piece. The last piece is the first one shorter than UPLOAD_CHUNK, so an empty
 * file is one empty piece and a file of whole pieces ends with an empty one.
 */
export function* pieces(file: string): Generator<Piece> {
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

/** Bytes in memory cut the same way. */
export function* bufferPieces(bytes: Buffer): Generator<Piece> {
  for (let offset = 0; ; offset += UPLOAD_CHUNK) {
    const piece = bytes.subarray(offset, offset + UPLOAD_CHUNK);
    yield { piece, offset };
    if (piece.length < UPLOAD_CHUNK) return;
  }
}

export interface PiecesTarget {
  /** Where the bytes go on the host. */
  path: string;
  /** The SHA-256 of all the bytes: checked on the host before the file takes its place. */
  sha256: string;
  /** The destination's SHA-256 as planned (null: absent); when given, a destination changed since is not overwritten. */
  expectedSha256?: string | null;
  /** The pieces are a secret's (from this source): each travels as a Secret. */
  secretSource?: string;
}

/** Sends the pieces to a temp file beside target.path, then checks it and moves it into place. */
export async function sendPieces(
  remote: Remote,
  target: PiecesTarget,
  parts: Iterable<Piece>,
  title: string,
): Promise<void> {
  const tempPath = `${target.path}.play-upload`;
  for (const { piece, offset } of parts) {
    const b64 = piece.toString('base64');
    const contentBase64 = target.secretSource === undefined ? b64 : new Secret(b64, target.secretSource);
    await invoke(
      remote,
      ADD_FILE_CHUNK,
      { path: tempPath, offset, contentBase64 },
      `${title}: Add-PlayFileChunk at ${offset}`,
    );
  }
  const guard = target.expectedSha256 === undefined ? {} : { expectedSha256: target.expectedSha256 };
  await invoke(
    remote,
    COMPLETE_UPLOAD,
    { tempPath, path: target.path, sha256: target.sha256, ...guard },
    `${title}: Complete-PlayUpload`,
  );
}
