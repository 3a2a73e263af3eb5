// A text file that a step edits (lineInFile, sysctl's persisted value): the probe reads the whole
// file, the new content is computed from it in TypeScript, and the write is guarded by the probed
// digest (see fs-write.ts), so a file edited by someone else between probe and apply is not
// overwritten with content computed from its old version.
import type { Script } from '../../runner/core/quote.js';
import { fsProbeScript, parseFsProbe, textOf, type FsEntry, type FsType } from './fs-probe.js';
import { atomicWriteScript, inlineContent, keptAttributes } from './fs-write.js';
import type { ProbeLines } from './probe-lines.js';

/** Files larger than this are refused: editing means reading the whole file through the probe. */
export const EDIT_LIMIT = 1024 * 1024;

export interface EditableFile {
  readonly type: FsType;
  /** The content of a regular file; null for anything else (which a step refuses to edit). */
  readonly text: string | null;
  readonly entry: FsEntry;
}

export function editableProbeScript(path: string): Script {
  return fsProbeScript(path, { contentLimit: EDIT_LIMIT });
}

/** Reads the fs probe's records; a file too large or not UTF-8 text is an error, not a guess. */
export function parseEditable(lines: ProbeLines, path: string): EditableFile | null {
  const entry = parseFsProbe(lines, { contentLimit: EDIT_LIMIT });
  if (entry === null) return null;
  if (entry.type !== 'file') return { type: entry.type, text: null, entry };
  if (entry.content === null) {
    throw new Error(
      `${path} is ${entry.stat!.size} bytes; files are edited up to ${EDIT_LIMIT} bytes (use file() to manage it whole)`,
    );
  }
  const text = textOf(entry.content);
  if (text === null)
    throw new Error(`${path} is not UTF-8 text (it has NUL bytes or invalid UTF-8); refusing to edit it line by line`);
  return { type: 'file', text, entry };
}

/**
 * Writes `text` only if the file is still as probed (or still absent): in the script when it can
 * carry it (fs-write.ts inlineContent), else from the script's stdin, which is then `stdin`.
 */
export function guardedWrite(
  path: string,
  actual: EditableFile | null,
  text: string,
): { script: Script; stdin?: string } {
  const content = inlineContent(text);
  const script = atomicWriteScript({
    path,
    ...keptAttributes(actual?.entry ?? null, {}),
    expect: actual?.entry.sha256 ?? 'absent',
    content,
  });
  return content === undefined ? { script, stdin: text } : { script };
}
