// Jump hosts as ssh(1) reads them in the arguments Ansible hands it (ansible_ssh_common_args and
// friends): `-o ProxyJump=[user@]host[:port]`, `-J [user@]host[:port]`, and the older
// `-o ProxyCommand="ssh -W %h:%p [-p PORT] [-l USER] [-i KEY] [user@]host"`. Pure: text in, the
// settings found (in order) or a JumpArgsError out. Play makes the jump itself over SSH
// (runner/transport/jump-host.ts), so what it cannot do the same way (another proxy program, a chain
// of hops, an ssh option that changes the hop) is refused, never passed over.
import { shellWords } from './ssh-words.js';

export type JumpForm = 'ProxyJump' | '-J' | 'ProxyCommand';

/** One hop, as written: `host` is an inventory host's name or an address. */
export interface JumpRequest {
  readonly form: JumpForm;
  readonly host: string;
  readonly user?: string;
  readonly port?: number;
  /** ProxyCommand's `-i` (or `-o IdentityFile`), as written. */
  readonly keyFile?: string;
}

/** `ProxyJump=none` (or ProxyCommand): no jump. */
export interface NoJump {
  readonly form: JumpForm;
  readonly none: true;
}

export type JumpSetting = JumpRequest | NoJump;

/** A refused jump setting; the message names the construct, the caller adds the host and the var. */
export class JumpArgsError extends Error {
  override name = 'JumpArgsError';
}

// ssh's options that take an argument (OpenSSH 9's getopt string), so that a value is never read as a flag.
const WITH_ARGUMENT = new Set('bceilmopBDEFIJLOPQRSwW');
// Flags a ProxyCommand may carry that change neither where the hop goes nor how it is verified.
const HARMLESS_FLAGS = new Set('qCTv46naxA');
// `-o` options of a ProxyCommand that tune the client only (keepalives, timeouts, compression, logging).
const HARMLESS_OPTIONS = new Set(
  [
    'BatchMode',
    'Compression',
    'ConnectTimeout',
    'ConnectionAttempts',
    'ControlMaster',
    'ControlPath',
    'ControlPersist',
    'ForwardAgent',
    'IdentitiesOnly',
    'LogLevel',
    'ServerAliveCountMax',
    'ServerAliveInterval',
    'TCPKeepAlive',
  ].map((o) => o.toLowerCase()),
);
const SUPPORTED_COMMAND = '`ssh -W %h:%p [-p PORT] [-l USER] [-i KEY] [user@]host`';

type Item = { flag: string; value?: string } | { operand: string };

/** ssh's command line read as getopt does: flags (grouped `-qT`, values attached `-p2222` or next), operands. */
function sshItems(words: readonly string[]): Item[] {
  const items: Item[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') {
      for (const rest of words.slice(i + 1)) items.push({ operand: rest });
      break;
    }
    if (!w.startsWith('-') || w === '-') {
      items.push({ operand: w });
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const flag = w[j]!;
      if (!WITH_ARGUMENT.has(flag)) {
        items.push({ flag });
        continue;
      }
      const value = j + 1 < w.length ? w.slice(j + 1) : words[++i];
      if (value === undefined) throw new JumpArgsError(`-${flag} is missing its value`);
      items.push({ flag, value });
      break;
    }
  }
  return items;
}

/** `Key=value`, `Key value` or `Key = value` (an -o argument): the key in lower case. */
function sshOption(text: string): { key: string; value: string } {
  const m = /^\s*([A-Za-z0-9]+)\s*(?:=\s*|\s+)(.*)$/s.exec(text);
  return m ? { key: m[1]!.toLowerCase(), value: m[2]!.trim() } : { key: text.trim().toLowerCase(), value: '' };
}

/** The values of one of ssh's flags that take a value (`-F FILE`, `-FFILE`) in a string of ssh arguments, in order. */
export function sshFlagValues(args: string, flag: string): string[] {
  return sshItems(shellWords(args)).flatMap((item) => ('flag' in item && item.flag === flag ? [item.value!] : []));
}

/** Every jump setting in a string of ssh arguments, in order (ssh would use the first). */
export function jumpSettings(args: string): JumpSetting[] {
  const settings: JumpSetting[] = [];
  for (const item of sshItems(shellWords(args))) {
    if (!('flag' in item)) continue;
    if (item.flag === 'J') settings.push(parseProxyJump(item.value!, '-J'));
    if (item.flag !== 'o') continue;
    const { key, value } = sshOption(item.value!);
    if (key === 'proxyjump') settings.push(parseProxyJump(value, 'ProxyJump'));
    if (key === 'proxycommand') settings.push(parseProxyCommand(value));
  }
  return settings;
}

/** ProxyJump's value (or -J's): `none`, or one hop `[ssh://][user@]host[:port]`. */
export function parseProxyJump(value: string, form: 'ProxyJump' | '-J' = 'ProxyJump'): JumpSetting {
  const shown = form === '-J' ? `-J ${value}` : `ProxyJump=${value}`;
  if (value.toLowerCase() === 'none') return { form, none: true };
  const hops = value.split(',');
  if (hops.length > 1)
    throw new JumpArgsError(
      `${shown}: a chain of ${hops.length} jump hosts is not supported yet: play jumps through one host`,
    );
  const hop = parseHop(value, true, shown);
  return { form, ...hop };
}

/** `[ssh://][user@]host[:port]`; a port only where ProxyJump takes one (ssh's destination has none). */
function parseHop(text: string, withPort: boolean, shown: string): Omit<JumpRequest, 'form'> {
  const uri = /^ssh:\/\//i.test(text);
  let rest = uri ? text.slice(6) : text;
  let user: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    user = rest.slice(0, at);
    rest = rest.slice(at + 1);
    if (!/^[^\s:@/]+$/.test(user)) throw new JumpArgsError(`${shown}: '${user}' is not a user name`);
  }
  let host = rest;
  let portText: string | undefined;
  const colons = rest.split(':').length - 1;
  const bracketed = /^\[([^\]]*)\](?::(.*))?$/.exec(rest);
  if (bracketed) [host, portText] = [bracketed[1]!, bracketed[2]];
  else if (colons === 1 && (withPort || uri)) [host, portText] = rest.split(':') as [string, string];
  else if (colons === 1) throw new JumpArgsError(`${shown}: ssh's destination '${rest}' takes no :port (give -p PORT)`);
  else if (colons > 1 && (withPort || uri))
    throw new JumpArgsError(`${shown}: write an IPv6 address in brackets ([${rest}])`);
  if (!/^[A-Za-z0-9._:-]+$/.test(host)) throw new JumpArgsError(`${shown}: '${host}' is not a host name or address`);
  const port = portText === undefined ? undefined : portOf(portText, shown);
  return { host, ...(user === undefined ? {} : { user }), ...(port === undefined ? {} : { port }) };
}

function portOf(text: string, shown: string): number {
  const n = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (n >= 1 && n <= 65535) return n;
  throw new JumpArgsError(`${shown}: port '${text}' is not a number from 1 to 65535`);
}

/** What a ProxyCommand's words have said so far; ssh keeps the first value it reads of each. */
class CommandHop {
  host?: string;
  user?: string;
  port?: number;
  keyFile?: string;
  forwards = false;

  constructor(readonly refuse: (why: string) => JumpArgsError) {}

  set(key: 'user' | 'port', value: string | number): void {
    if (key === 'user') this.user ??= value as string;
    else this.port ??= value as number;
  }

  identity(file: string): void {
    if (this.keyFile !== undefined) throw this.refuse('several identity files (play offers one key)');
    this.keyFile = file;
  }
}

/** ProxyCommand's value: `none`, or `[exec] ssh ... -W %h:%p ... [user@]host`, which play makes itself. */
export function parseProxyCommand(value: string): JumpSetting {
  const shown = `ProxyCommand '${value}'`;
  if (value.toLowerCase() === 'none') return { form: 'ProxyCommand', none: true };
  const refuse = (why: string) => new JumpArgsError(`${shown}: ${why}; play supports only ${SUPPORTED_COMMAND}`);
  if (/[|;&<>`$(){}\n]/.test(value)) throw refuse('a shell construct (pipe, redirection, expansion, list)');
  let words: string[];
  try {
    words = shellWords(value);
  } catch (e) {
    throw refuse((e as Error).message);
  }
  if (words[0] === 'exec') words = words.slice(1);
  const program = words[0] ?? '';
  if (!/(^|\/)ssh$/.test(program)) throw refuse(`${program || 'an empty command'} is not ssh`);
  const hop = new CommandHop(refuse);
  for (const item of sshItems(words.slice(1))) {
    if ('operand' in item) {
      if (hop.host !== undefined) throw refuse(`'${item.operand}' after the destination (a remote command)`);
      const dest = parseHop(item.operand, false, shown);
      if (dest.user !== undefined) hop.set('user', dest.user);
      hop.host = dest.host;
    } else commandFlag(hop, item.flag, item.value);
  }
  if (!hop.forwards) throw refuse('no -W %h:%p');
  if (hop.host === undefined) throw refuse('no destination host');
  const { host, user, port, keyFile } = hop;
  return {
    form: 'ProxyCommand',
    host,
    ...(user === undefined ? {} : { user }),
    ...(port === undefined ? {} : { port }),
    ...(keyFile === undefined ? {} : { keyFile }),
  };
}

function commandFlag(hop: CommandHop, flag: string, value: string | undefined): void {
  const { refuse } = hop;
  if (flag === 'W') {
    if (!/^(%h|\[%h\]):%p$/.test(value!)) throw refuse(`-W ${value} does not forward to the target (%h:%p)`);
    hop.forwards = true;
  } else if (flag === 'p') hop.set('port', portOf(value!, `-p ${value}`));
  else if (flag === 'l') hop.set('user', value!);
  else if (flag === 'i') hop.identity(value!);
  else if (flag === 'o') commandOption(hop, value!);
  else if (flag === 'J') throw refuse(`-J ${value} inside it (a chain of jump hosts)`);
  else if (!HARMLESS_FLAGS.has(flag)) throw refuse(`the option -${flag}${value === undefined ? '' : ` ${value}`}`);
}

/** A ProxyCommand's `-o`: Port, User and IdentityFile are read; options that only tune the client are
 *  passed over (they change neither the hop nor its verification); anything else is refused. */
function commandOption(hop: CommandHop, text: string): void {
  const { key, value } = sshOption(text);
  if (key === 'port') hop.set('port', portOf(value, `-o ${text}`));
  else if (key === 'user') hop.set('user', value);
  else if (key === 'identityfile') hop.identity(value);
  else if (key === 'proxyjump' || key === 'proxycommand')
    throw hop.refuse(`-o ${text} inside it (a chain of jump hosts)`);
  else if (!HARMLESS_OPTIONS.has(key))
    throw hop.refuse(
      `-o ${text} (only Port, User, IdentityFile and keepalive, timeout or logging options are read there)`,
    );
}
