// The file system as [System.IO.File] (the host's shim) and the FileSystem provider of
// mock/Items.psm1 see it, over file-store.ts. .NET Framework's rules and texts: WriteAllBytes makes
// no directories ("Could not find a part of the path 'X'."), a directory is not a file ("Access to
// the path 'X' is denied."), Move never overwrites, Replace needs its destination. The node has one
// drive, C:.
import { WindowsError } from '../errors.js';
import { isDirectory, makeDirectory, writeFile } from '../file-store.js';
import type { NodeState } from '../node-state.js';
import { baseName, filePath, parentOf, type WinPath } from '../win-paths.js';
import { type Ops, optStr, str } from './types.js';

const DRIVES = new Set(['c']);

export function driveExists(p: WinPath): boolean {
  return DRIVES.has(p.key[0]!);
}

export function isDir(s: NodeState, p: WinPath): boolean {
  return driveExists(p) && isDirectory(s, p);
}

export function isFile(s: NodeState, p: WinPath): boolean {
  return s.files[p.key] !== undefined;
}

function parentIsDir(s: NodeState, p: WinPath): boolean {
  const parent = parentOf(p);
  return parent !== null && isDir(s, parent);
}

const denied = (p: WinPath) => new WindowsError(`Access to the path '${p.display}' is denied.`);
const noPart = (p: WinPath) => new WindowsError(`Could not find a part of the path '${p.display}'.`);
const noFile = (p: WinPath) => new WindowsError(`Could not find file '${p.display}'.`);

/** Everything stored at or below a directory (files and directories), by model key. */
function below(s: NodeState, p: WinPath): { files: string[]; directories: string[] } {
  const base = p.key.endsWith('\\') ? p.key : `${p.key}\\`;
  return {
    files: Object.keys(s.files).filter((k) => k.startsWith(base)),
    directories: Object.keys(s.directories).filter((k) => k.startsWith(base)),
  };
}

/** What Get-Item and Test-Path need of a path; null when nothing is there. */
export function fileItem(s: NodeState, p: WinPath) {
  if (isDir(s, p)) {
    const inside = below(s, p);
    const root = p.key.length === 3;
    const display = root ? p.display : (s.directories[p.key] ?? p.display);
    return {
      container: true,
      path: display,
      name: root ? display : baseName({ ...p, display }),
      length: 0,
      hasChildren: inside.files.length + inside.directories.length > 0,
    };
  }
  const f = s.files[p.key];
  if (!f) return null;
  const q = { display: f.path, key: p.key };
  return {
    container: false,
    path: f.path,
    name: baseName(q),
    length: Buffer.from(f.contentBase64, 'base64').length,
    hasChildren: false,
  };
}

/** Remove-Item: a file, or a directory with everything in it. */
export function removeFileItem(s: NodeState, p: WinPath): void {
  if (p.key.length === 3) throw new WindowsError(`Cannot remove the root of drive ${p.display}`);
  if (isFile(s, p)) {
    delete s.files[p.key];
    return;
  }
  const inside = below(s, p);
  for (const k of inside.files) delete s.files[k];
  for (const k of inside.directories) delete s.directories[k];
  delete s.directories[p.key];
}

/** New-Item -ItemType Directory: parents too (DirectoryInfo.Create). */
export function newDirectory(s: NodeState, p: WinPath): void {
  if (!driveExists(p)) throw noPart(p);
  makeDirectory(s, p);
}

/** New-Item -ItemType File: an empty file (or the given text) in an existing directory. */
export function newFile(s: NodeState, p: WinPath, content: Buffer): void {
  if (isDir(s, p)) throw denied(p);
  if (!parentIsDir(s, p)) throw noPart(p);
  writeFile(s, p.display, content);
}

export function readBytes(s: NodeState, p: WinPath): Buffer {
  if (isDir(s, p)) throw denied(p);
  const f = s.files[p.key];
  if (f) return Buffer.from(f.contentBase64, 'base64');
  throw parentIsDir(s, p) ? noFile(p) : noPart(p);
}

export const fileOps: Ops = {
  /** File.ReadAllBytes, as base64. */
  'File.Read': (node, a) => readBytes(node.state, filePath(str(a, 'path'))).toString('base64'),

  /** File.WriteAllBytes: replaces a file, never makes its directory. */
  'File.Write': (node, a) => {
    const s = node.state;
    const p = filePath(str(a, 'path'));
    if (isDir(s, p)) throw denied(p);
    if (!parentIsDir(s, p)) throw noPart(p);
    writeFile(s, p.display, Buffer.from(str(a, 'contentBase64'), 'base64'));
    return null;
  },

  /**
   * File.Open(path, mode) for writing: Create makes the file empty (a new one, or truncated), Append
   * keeps its bytes (a new one when missing); neither makes its directory. The stream's writes are
   * File.Append.
   */
  'File.Open': (node, a) => {
    const s = node.state;
    const p = filePath(str(a, 'path'));
    const mode = str(a, 'mode');
    if (mode !== 'Create' && mode !== 'Append')
      throw new Error(
        `the simulated File.Open models FileMode Create and Append, not ${mode} (lab/windows/surface/files.ts)`,
      );
    if (isDir(s, p)) throw denied(p);
    if (!parentIsDir(s, p)) throw noPart(p);
    if (mode === 'Create' || !isFile(s, p)) writeFile(s, p.display, Buffer.alloc(0));
    return null;
  },

  /** FileStream.Write on a stream File.Open returned: the bytes go at the file's end. */
  'File.Append': (node, a) => {
    const s = node.state;
    const p = filePath(str(a, 'path'));
    const old = readBytes(s, p);
    writeFile(s, p.display, Buffer.concat([old, Buffer.from(str(a, 'contentBase64'), 'base64')]));
    return null;
  },

  /** File.Exists: true for a file only; a bad path is just false. */
  'File.Exists': (node, a) => {
    try {
      return isFile(node.state, filePath(str(a, 'path')));
    } catch (e) {
      if (e instanceof WindowsError) return false;
      throw e;
    }
  },

  /** File.Move (.NET Framework: no overwrite; the Win32 errors carry no path). */
  'File.Move': (node, a) => {
    const s = node.state;
    const source = filePath(str(a, 'source'));
    const destination = filePath(str(a, 'destination'));
    if (!isFile(s, source)) throw noFile(source);
    if (isFile(s, destination) || isDir(s, destination))
      throw new WindowsError('Cannot create a file when that file already exists.');
    if (!parentIsDir(s, destination)) throw new WindowsError('Could not find a part of the path.');
    const record = s.files[source.key]!;
    delete s.files[source.key];
    s.files[destination.key] = { path: destination.display, contentBase64: record.contentBase64 };
    return null;
  },

  /** File.Replace(source, destination, backup): both must be files; the backup (if any) keeps the old content. */
  'File.Replace': (node, a) => {
    const s = node.state;
    const source = filePath(str(a, 'source'));
    const destination = filePath(str(a, 'destination'));
    const backup = optStr(a, 'backup');
    if (!isFile(s, source) || !isFile(s, destination)) throw new WindowsError('Unable to find the specified file.');
    const old = s.files[destination.key]!;
    if (backup !== null) {
      const b = filePath(backup);
      if (!parentIsDir(s, b)) throw new WindowsError('Could not find a part of the path.');
      writeFile(s, b.display, Buffer.from(old.contentBase64, 'base64'));
    }
    s.files[destination.key] = { path: old.path, contentBase64: s.files[source.key]!.contentBase64 };
    delete s.files[source.key];
    return null;
  },

  /** File.Delete: a missing file is fine, a missing directory is not. */
  'File.Delete': (node, a) => {
    const s = node.state;
    const p = filePath(str(a, 'path'));
    if (isDir(s, p)) throw denied(p);
    if (!parentIsDir(s, p)) throw noPart(p);
    delete s.files[p.key];
    return null;
  },
};
