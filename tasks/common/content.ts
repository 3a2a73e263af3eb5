// File content as both kinds of steps (Linux and Windows) compare it: its sha256 in lowercase hex,
// and its text when it is UTF-8 without NUL bytes (what a diff can show).
import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The content as text when it is UTF-8 without NUL bytes (what we diff and edit); else null. */
export function textOf(content: Buffer | null): string | null {
  if (content === null || content.includes(0)) return null;
  try {
    return utf8.decode(content);
  } catch {
    return null;
  }
}
