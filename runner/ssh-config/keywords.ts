// What each ssh_config keyword line means to play: the keywords it honours decoded and checked (a bad
// port or time is an error wherever it stands, as ssh makes it), the block keywords (Host, Match,
// Include), and every other keyword kept as written, for the warning that play does not honour it.
import { strdelimWords, type ConfigLine } from './lexer.js';
import { convtime } from './expand.js';

export type StrictHostKeyChecking = 'yes' | 'no' | 'ask' | 'accept-new';

/** Match criteria play evaluates; the others (exec, canonical, final) make the block skipped, with a warning. */
export type MatchCriterion =
  | { readonly negate: boolean; readonly attr: 'all' }
  | {
      readonly negate: boolean;
      readonly attr: 'host' | 'originalhost' | 'user' | 'localuser' | 'exec';
      readonly arg: string;
    }
  | { readonly negate: boolean; readonly attr: 'canonical' | 'final' };

/** One decoded line. `other` is a keyword play does not honour. */
export type Directive =
  | { readonly kind: 'host'; readonly patterns: readonly string[] }
  | { readonly kind: 'match'; readonly criteria: readonly MatchCriterion[] }
  | { readonly kind: 'include'; readonly paths: readonly string[] }
  | { readonly kind: 'hostname' | 'user' | 'identityfile' | 'proxyjump' | 'proxycommand'; readonly value: string }
  | {
      readonly kind: 'port' | 'connecttimeout' | 'serveraliveinterval' | 'serveralivecountmax';
      readonly value: number;
    }
  | { readonly kind: 'identitiesonly'; readonly value: boolean }
  | { readonly kind: 'userknownhostsfile'; readonly value: readonly string[] }
  | { readonly kind: 'stricthostkeychecking'; readonly value: StrictHostKeyChecking }
  | { readonly kind: 'same'; readonly written: string }
  | { readonly kind: 'other'; readonly written: string };

export type DirectiveKind = Directive['kind'];

/** A line ssh would refuse; the caller names the file and line. */
export class DirectiveError extends Error {
  override name = 'DirectiveError';
}

const FLAGS: Record<string, boolean> = { yes: true, true: true, no: false, false: false };
const STRICT: Record<string, StrictHostKeyChecking> = {
  yes: 'yes',
  true: 'yes',
  no: 'no',
  false: 'no',
  off: 'no',
  ask: 'ask',
  'accept-new': 'accept-new',
};
// Values that say what play does anyway (it never prompts, forwards nothing, multiplexes nothing).
const SAME_AS_PLAY: Record<string, string> = {
  batchmode: 'yes',
  forwardagent: 'no',
  forwardx11: 'no',
  controlmaster: 'no',
  clearallforwardings: 'yes',
};

/** The meaning of one line, or a DirectiveError saying what ssh would refuse in it. */
export function decode(l: ConfigLine): Directive {
  const one = (): string => {
    if (l.args.length !== 1)
      throw new DirectiveError(`${l.written} takes one value, got ${l.args.length ? l.args.join(' ') : 'none'}`);
    return l.args[0]!;
  };
  switch (l.keyword) {
    case 'host':
      return { kind: 'host', patterns: l.args };
    case 'match':
      return { kind: 'match', criteria: matchCriteria(l.rest) };
    case 'include':
      return { kind: 'include', paths: l.args };
    case 'hostname':
    case 'user':
    case 'identityfile':
      return { kind: l.keyword, value: one() };
    case 'proxycommand':
      return { kind: 'proxycommand', value: l.rest };
    case 'proxyjump':
      // parse_jump: a `#` comment and trailing blanks cut off.
      return { kind: 'proxyjump', value: l.rest.replace(/#.*$/s, '').trimEnd() };
    case 'port':
      return { kind: 'port', value: portOf(one()) };
    case 'connecttimeout':
    case 'serveraliveinterval':
      // `none` is ssh's "not set": a later line may still set it.
      return one() === 'none'
        ? { kind: 'same', written: l.written }
        : { kind: l.keyword, value: timeOf(l.written, one()) };
    case 'serveralivecountmax':
      return { kind: 'serveralivecountmax', value: countOf(l.written, one()) };
    case 'identitiesonly':
      return { kind: 'identitiesonly', value: choice(l.written, one(), FLAGS) };
    case 'stricthostkeychecking':
      return { kind: 'stricthostkeychecking', value: choice(l.written, one(), STRICT) };
    case 'userknownhostsfile':
      if (l.args.length > 1 && l.args.some((a) => a.toLowerCase() === 'none'))
        throw new DirectiveError(`${l.written}: "none" must appear alone`);
      return { kind: 'userknownhostsfile', value: l.args };
  }
  const same = SAME_AS_PLAY[l.keyword];
  if (same !== undefined && l.args.length === 1 && l.args[0]!.toLowerCase() === same)
    return { kind: 'same', written: l.written };
  return { kind: 'other', written: l.written };
}

function portOf(text: string): number {
  const n = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (n >= 1 && n <= 65535) return n;
  throw new DirectiveError(`bad port '${text}': a number from 1 to 65535`);
}

function timeOf(keyword: string, text: string): number {
  const n = convtime(text);
  if (n === undefined) throw new DirectiveError(`${keyword} '${text}' is not a time (seconds, or such as 1m30s)`);
  return n;
}

function countOf(keyword: string, text: string): number {
  if (/^\d{1,9}$/.test(text)) return Number(text);
  throw new DirectiveError(`${keyword} '${text}' is not a whole number`);
}

function choice<T>(keyword: string, text: string, values: Record<string, T>): T {
  const v = values[text.toLowerCase()];
  if (v !== undefined) return v;
  throw new DirectiveError(`${keyword} '${text}': expected ${Object.keys(values).join(', ')}`);
}

const WITH_ARGUMENT = new Set(['host', 'originalhost', 'user', 'localuser', 'exec']);

/** readconf.c's match_cfg_line, the syntax only: what it would call a bad Match condition is refused here. */
function matchCriteria(rest: string): MatchCriterion[] {
  const words = strdelimWords(rest);
  if (!words) throw new DirectiveError('Match: invalid quotes');
  const criteria: MatchCriterion[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    if (word.startsWith('#')) break;
    const negate = word.startsWith('!');
    const attr = (negate ? word.slice(1) : word).toLowerCase();
    if (attr === 'all') {
      const next = words[i + 1];
      if (criteria.length > 1 || (next !== undefined && next !== '' && !next.startsWith('#')))
        throw new DirectiveError(`Match: '${word}' cannot be combined with other Match attributes`);
      criteria.push({ negate, attr: 'all' });
      break;
    }
    if (attr === 'canonical' || attr === 'final') {
      criteria.push({ negate, attr });
      continue;
    }
    if (!WITH_ARGUMENT.has(attr)) throw new DirectiveError(`Match: unsupported attribute '${word}'`);
    const arg = words[++i];
    if (arg === undefined || arg === '' || arg.startsWith('#'))
      throw new DirectiveError(`Match: missing criteria for ${word}`);
    criteria.push({ negate, attr: attr as 'host', arg });
  }
  if (criteria.length === 0) throw new DirectiveError('Match: one or more attributes required');
  return criteria;
}
