// Files and directories of the simulated Windows node (a test double): case-insensitive paths,
// content as base64, parents created on write as the steps' Set-PlayFile does.
import { createHash } from 'node:crypto';
import { WindowsError } from './errors.js';
import type { NodeState } from './node-state.js';
import { ancestorsOf, filePath, type WinPath } from './win-paths.js';

export function sha256Hex(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export function isDirectory(s: NodeState, p: WinPath): boolean {
  return p.key.length === 3 || s.directories[p.key] !== undefined;
}

export function readFile(s: NodeState, raw: string): Buffer | null {
  const p = filePath(raw);
  if (isDirectory(s, p)) throw new WindowsError(`${raw} is a directory, not a file`);
  const f = s.files[p.key];
  return f ? Buffer.from(f.contentBase64, 'base64') : null;
}

export function makeDirectory(s: NodeState, p: WinPath): void {
  for (const q of [...ancestorsOf(p), p]) {
    if (q.key.length === 3) continue;
    if (s.files[q.key]) throw new WindowsError(`An item with the specified name ${q.display} already exists.`);
    s.directories[q.key] ??= q.display;
  }
}

/** Writes a file, creating missing parent directories. */
export function writeFile(s: NodeState, raw: string, content: Buffer): WinPath {
  const p = filePath(raw);
  if (isDirectory(s, p)) throw new WindowsError(`${raw} exists and is not a file: not replaced`);
  const parents = ancestorsOf(p);
  for (const q of parents) {
    if (s.files[q.key]) throw new WindowsError(`Could not find a part of the path '${p.display}'.`);
  }
  if (parents.length > 0) makeDirectory(s, parents[parents.length - 1]!);
  const existing = s.files[p.key];
  s.files[p.key] = { path: existing?.path ?? p.display, contentBase64: content.toString('base64') };
  return p;
}

export function fileExists(s: NodeState, raw: string): boolean {
  const p = filePath(raw);
  return s.files[p.key] !== undefined;
}
