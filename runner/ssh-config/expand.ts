// The expansions ssh applies to ssh_config values: `~` (tilde_expand_filename), `%` tokens and
// `${VAR}` (misc.c's percent_dollar_expand), and time values (convtime: `90`, `1m30s`).
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { join } from 'node:path';

/** A value ssh could not expand; the caller names the file and line. */
export class ExpandError extends Error {
  override name = 'ExpandError';
}

/** What the client side `%` tokens stand for (ssh.c's ssh_conn_info). */
export interface Tokens {
  /** %h: the remote host name, after HostName. */
  readonly host: string;
  /** %n: the host name as given to ssh (the alias). */
  readonly alias: string;
  /** %r: the remote user. */
  readonly user: string;
  /** %p */
  readonly port: number;
  /** %u, %d, %i: the local user, its home directory and uid. */
  readonly localUser: string;
  readonly home: string;
  readonly uid: number;
  /** %l: the local host name (%L: up to its first dot). */
  readonly localHost: string;
}

/** `~` and `~/x` as the local user's home; `~user` is not read (play knows only its own home). */
export function expandTilde(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  if (path.startsWith('~')) throw new ExpandError(`'${path}': ~user paths are not supported: write the path out`);
  return path;
}

/** The `%` tokens of IdentityFile, UserKnownHostsFile and the like (DEFAULT_CLIENT_PERCENT_EXPAND_ARGS). */
function clientTokens(t: Tokens): Record<string, string> {
  // %C: ssh_connection_hash, SHA-1 of %l%h%p%r.
  const hash = createHash('sha1').update(`${t.localHost}${t.host}${t.port}${t.user}`).digest('hex');
  return {
    C: hash,
    L: t.localHost.split('.')[0]!,
    i: String(t.uid),
    k: t.alias,
    l: t.localHost,
    n: t.alias,
    p: String(t.port),
    d: t.home,
    h: t.host,
    r: t.user,
    u: t.localUser,
  };
}

/** `%x` from `tokens` (`%%` is `%`), and `${VAR}` from the environment when `dollar`. */
export function percentExpand(
  value: string,
  tokens: Record<string, string>,
  dollar = false,
  env: NodeJS.ProcessEnv = process.env,
): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (dollar && c === '$' && value[i + 1] === '{') {
      const end = value.indexOf('}', i + 2);
      if (end < 0) throw new ExpandError(`'${value}': \${ without its closing }`);
      const name = value.slice(i + 2, end);
      if (!name) throw new ExpandError(`'${value}': an empty \${}`);
      const v = env[name];
      if (v === undefined) throw new ExpandError(`'${value}': the environment variable ${name} is not set`);
      out += v;
      i = end;
    } else if (c === '%') {
      const key = value[++i];
      if (key === '%') out += '%';
      else if (key !== undefined && Object.hasOwn(tokens, key)) out += tokens[key];
      else throw new ExpandError(`'${value}': ${key === undefined ? 'a % at the end' : `unknown token %${key}`}`);
    } else out += c;
  }
  return out;
}

/** A path value as ssh expands it when it uses it: `~` first, then `%` tokens and `${VAR}`. */
export function expandPath(value: string, t: Tokens): string {
  return percentExpand(expandTilde(value, t.home), clientTokens(t), true);
}

/** HostName: only `%h` (the alias) and `%%`; lower-cased unless an address, as ssh does. */
export function expandHostName(value: string, alias: string): string {
  const name = percentExpand(value, { h: alias });
  return isIP(name) ? name : name.toLowerCase();
}

const UNITS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** convtime: `90`, `90s`, `1m30s`, `2h`, ... in seconds; undefined when it is not a time. */
export function convtime(text: string): number | undefined {
  if (!text) return undefined;
  let total = 0;
  for (const m of text.matchAll(/(\d+)([smhdw]?)|(.)/giy)) {
    if (m[3] !== undefined) return undefined;
    total += Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
  }
  return total <= 2 ** 31 - 1 ? total : undefined;
}
