// Reading ssh_config files: each read and decoded once per run, with ssh's own checks (a user's file
// and every included file must be owned by root or the user and writable by no one else: ssh refuses
// them otherwise), and Include's paths: relative to ~/.ssh in a user's file and to /etc/ssh in the
// system's, `~` and glob patterns expanded and sorted as glob(3) does.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { decode, DirectiveError, type Directive } from './keywords.js';
import { lexConfig } from './lexer.js';

export interface DecodedLine {
  readonly line: number;
  readonly directive: Directive;
}

export interface FileProblem {
  /** Absent: the file as a whole (unreadable, bad permissions). */
  readonly line?: number;
  readonly detail: string;
}

export interface ConfigFile {
  readonly path: string;
  /** Absent when the file does not exist. */
  readonly lines?: readonly DecodedLine[];
  readonly problems: readonly FileProblem[];
}

/** Why ssh would refuse to read `path` (its owner or mode), or undefined. */
function permissionProblem(path: string): string | undefined {
  const st = statSync(path);
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if ((st.uid !== 0 && st.uid !== uid) || (st.mode & 0o022) !== 0)
    return (
      `bad owner or permissions (mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}, owner uid ${st.uid}): ` +
      `ssh refuses to read it too; make it yours and writable only by you (chmod go-w ${path})`
    );
  return undefined;
}

/** Reads and decodes one file; `checkPerm` for a user's file and included files (ssh's SSHCONF_CHECKPERM). */
export function readConfigFile(path: string, checkPerm: boolean): ConfigFile {
  let text: string;
  try {
    if (!statSync(path).isFile()) return { path, problems: [{ detail: 'is not a regular file' }] };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { path, problems: [] };
    return { path, problems: [{ detail: `cannot be read (${code ?? (e as Error).message})` }] };
  }
  const perm = checkPerm ? permissionProblem(path) : undefined;
  if (perm) return { path, problems: [{ detail: perm }] };
  const { lines, problems } = lexConfig(text);
  const decoded: DecodedLine[] = [];
  const all: FileProblem[] = [...problems];
  for (const l of lines) {
    try {
      decoded.push({ line: l.line, directive: decode(l) });
    } catch (e) {
      if (!(e instanceof DirectiveError)) throw e;
      all.push({ line: l.line, detail: e.message });
    }
  }
  return { path, lines: decoded, problems: all };
}

/**
 * The files an Include argument names, sorted; `userConf` anchors relative paths in ~/.ssh, else
 * /etc/ssh. `consulted` gets every directory listed and every path whose existence was tested: what
 * would have to change for the answer to change.
 */
export function includedFiles(arg: string, userConf: boolean, home: string, consulted: string[] = []): string[] {
  if (arg.startsWith('~') && !userConf) throw new DirectiveError(`bad include path ${arg} (no ~ in a system file)`);
  let path = arg;
  if (arg === '~' || arg.startsWith('~/')) path = join(home, arg.slice(2));
  else if (arg.startsWith('~')) throw new DirectiveError(`Include ${arg}: ~user paths are not supported`);
  else if (!isAbsolute(arg)) path = join(userConf ? join(home, '.ssh') : '/etc/ssh', arg);
  return glob(path, consulted);
}

const isGlob = (part: string) => /[*?[]/.test(part);

/** glob(3) without flags beyond ~: each wildcard segment matched against its directory, results sorted. */
function glob(path: string, consulted: string[]): string[] {
  let found = ['/'];
  for (const part of path.split('/').filter(Boolean)) {
    if (!isGlob(part)) {
      found = found.map((dir) => join(dir, part));
      continue;
    }
    const re = segmentRegex(part);
    found = found.flatMap((dir) => {
      consulted.push(dir);
      try {
        return readdirSync(dir)
          .filter((name) => re.test(name) && (name[0] !== '.' || part[0] === '.'))
          .map((name) => join(dir, name));
      } catch {
        return [];
      }
    });
  }
  consulted.push(...found);
  return found.filter(exists).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** fnmatch's `*`, `?` and `[...]` (`[!...]` negated) as a regex for one path segment. */
function segmentRegex(part: string): RegExp {
  let body = '';
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    const close = c === '[' ? part.indexOf(']', i + 2) : -1;
    if (c === '*') body += '[^/]*';
    else if (c === '?') body += '[^/]';
    else if (close > 0) {
      const set = part.slice(i + 1, close);
      const negated = set.startsWith('!') || set.startsWith('^');
      const chars = (negated ? set.slice(1) : set).replace(/[\\\]^]/g, '\\$&');
      body += `[${negated ? '^' : ''}${chars}]`;
      i = close;
    } else body += c.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
  }
  return new RegExp(`^${body}$`);
}
