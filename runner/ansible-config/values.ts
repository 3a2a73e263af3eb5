// Ansible's readings of a setting's text by its type (ansible/config/manager.py ensure_type), pure:
// booleans (module_utils' boolean), integers (Python's int()), strings and list items unquoted once
// (parsing/quoting.py unquote), paths with $VARS and ~ expanded and a relative path taken from the
// directory of the ansible.cfg that set it, or the working directory for an environment variable.
import { isAbsolute, join, normalize } from 'node:path';

const TRUE = new Set(['y', 'yes', 'on', '1', 'true', 't']);
const FALSE = new Set(['n', 'no', 'off', '0', 'false', 'f']);

/** A value Ansible would read otherwise than it is probably meant (play says so: the caller names where). */
export class ValueError extends Error {
  override name = 'ValueError';
}

/** Ansible's booleans; anything else (which Ansible reads as false) is refused, naming the accepted words. */
export function ansibleBoolean(text: string): boolean {
  const t = text.trim().toLowerCase();
  if (TRUE.has(t)) return true;
  if (FALSE.has(t)) return false;
  throw new ValueError(`'${text}' is not a boolean: expected yes/no, true/false, on/off, 1/0 (or y/n, t/f)`);
}

/** Python's int() of a decimal text (surrounding spaces, a sign and `_` between digits allowed). */
export function ansibleInteger(text: string): number {
  if (!/^\s*[+-]?\d+(?:_\d+)*\s*$/.test(text)) throw new ValueError(`'${text}' is not a whole number`);
  return Number(text.trim().replaceAll('_', ''));
}

/** Ansible's unquote: one pair of matching surrounding quotes removed (not when the last is escaped). */
export function unquote(text: string): string {
  const quoted =
    text.length > 1 && text[0] === text.at(-1) && (text[0] === '"' || text[0] === "'") && text.at(-2) !== '\\';
  return quoted ? text.slice(1, -1) : text;
}

/** A comma-separated list, each item stripped and unquoted (Ansible's `list` type). */
export function ansibleList(text: string): string[] {
  return text.split(',').map((x) => unquote(x.trim()));
}

/** Python's os.path.expandvars: `$NAME` and `${NAME}` from `env`; unknown ones stay as written. */
function expandVars(path: string, env: NodeJS.ProcessEnv): string {
  return path.replace(/\$(\w+|\{[^}]*\})/g, (all, name: string) => {
    const key = name.startsWith('{') ? name.slice(1, -1) : name;
    return env[key] ?? all;
  });
}

/** Python's os.path.expanduser for `~` and `~/...` (`~user` stays as written). */
function expandUser(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? home + path.slice(1) : path;
}

/** Ansible's resolve_path (unfrackpath without following links): absolute and normalized. */
export function ansiblePath(text: string, o: { baseDir: string; env: NodeJS.ProcessEnv; home: string }): string {
  const path = expandUser(expandVars(text, o.env), o.home);
  const absolute = isAbsolute(path) ? path : join(o.baseDir, path);
  const n = normalize(absolute);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

/** Ansible's `pathlist`: comma-separated paths, each stripped and resolved. */
export function ansiblePathList(text: string, o: { baseDir: string; env: NodeJS.ProcessEnv; home: string }): string[] {
  return text.split(',').map((x) => ansiblePath(x.trim(), o));
}
