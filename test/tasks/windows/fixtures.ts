// Test fixtures: exact excerpts of the field notes (docs/field-notes.md), each file starting with comment lines
// that say where it comes from, then `# ---`, then the excerpt byte for byte.
import { readFileSync } from 'node:fs';

export function fixture(name: string): string {
  const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
  const at = text.indexOf('\n# ---\n');
  if (!text.startsWith('# ') || at < 0) throw new Error(`fixture ${name} has no '# source' header`);
  return text.slice(at + '\n# ---\n'.length);
}

/** The same text with Windows line ends, as the programs print it on a real node. */
export function crlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n');
}

/** Text as it reads when UTF-16LE output is decoded byte by byte: a NUL after every ASCII character. */
export function utf16AsBytes(text: string): string {
  return [...Buffer.from(text, 'utf16le')].map((b) => String.fromCharCode(b)).join('');
}
