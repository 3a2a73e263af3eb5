// The password file libpq reads (~/.pgpass, or PGPASSFILE): lines of host:port:database:user:password,
// '*' matching anything, '\' escaping ':' and '\'. Read here rather than through node-postgres, whose
// own reading of it is deprecated and prints a warning. As in libpq, a file that group or others may
// read is ignored (and the message that no password was found says so), and a socket in the default
// directory matches the host name localhost.
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PgpassAnswer {
  readonly password: string | null;
  /** The file looked at, for messages (null: none). */
  readonly file: string | null;
  /** Why it was not used, when it exists but was ignored. */
  readonly ignored: string | null;
}

export interface PgpassQuery {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
}

const DEFAULT_SOCKET_DIRS = ['/var/run/postgresql', '/run/postgresql', '/tmp'];

/** The line's fields, unescaped; the fifth takes the rest of the line, colons included. */
function fields(line: string): string[] {
  const out: string[] = [''];
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === '\\' && i + 1 < line.length) out[out.length - 1] += line[++i];
    else if (c === ':' && out.length < 5) out.push('');
    else out[out.length - 1] += c;
  }
  return out;
}

function hostMatches(field: string, host: string): boolean {
  if (field === '*' || field === host) return true;
  return field === 'localhost' && DEFAULT_SOCKET_DIRS.includes(host);
}

/** The password for `q` from the password file in `env` (PGPASSFILE, else ~/.pgpass). */
export function pgpassPassword(q: PgpassQuery, env: NodeJS.ProcessEnv = process.env): PgpassAnswer {
  const file = env.PGPASSFILE || join(env.HOME || homedir(), '.pgpass');
  let text: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) return { password: null, file, ignored: 'it is not a regular file' };
    if ((st.mode & 0o077) !== 0)
      return { password: null, file, ignored: `group or others may read it: chmod 600 ${file}` };
    text = readFileSync(file, 'utf8');
  } catch {
    return { password: null, file: null, ignored: null };
  }
  const wanted = [String(q.port), q.database, q.user];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line === '' || line.startsWith('#')) continue;
    const f = fields(line);
    if (f.length < 5) continue;
    if (hostMatches(f[0]!, q.host) && wanted.every((w, i) => f[i + 1] === '*' || f[i + 1] === w))
      return { password: f[4]!, file, ignored: null };
  }
  return { password: null, file, ignored: null };
}
