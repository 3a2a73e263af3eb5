// Host keys such as `node[001:010]`, `web[a:c]`, `h[1:10:2]` or `db1:2222`, expanded as ansible-core
// does (parsing/utils/addresses.py parse_address, plugins/inventory expand_hostname_range), so an
// inventory written for Ansible yields the same host names here. The same address grammar decides
// whether a --limit without commas is one pattern (an IPv6 address, a range) or a ':'-separated list.

const numericRange = String.raw`\[(?:[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const hexRange = String.raw`\[(?:[0-9a-f]+:[0-9a-f]+)(?::[0-9]+)?\]`;
const alnumRange = String.raw`\[(?:[a-z]:[a-z]|[0-9]+:[0-9]+)(?::[0-9]+)?\]`;
const v6 = `(?:[0-9a-f]{1,4}|${hexRange})`;
const v4 = `(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]|${numericRange})`;
// Python's \w is Unicode-aware; \p{L}\p{N}_ is its closest JavaScript spelling.
const w = String.raw`[\p{L}\p{N}_]`;
const label = String.raw`(?:${w}|${alnumRange})(?:${w}|-|${alnumRange})*(?<![_-])`;

const bracketedHostPort = /^\[(.+)\]:([0-9]+)$/;
const hostPort = /^((?:[^:[\]]|\[[^\]]*\])*):([0-9]+)$/;
export const ipv4 = new RegExp(`^(?:${v4}\\.){3}${v4}$`, 'i');
export const ipv6 = new RegExp(
  '^(?:' +
    [
      `(?:${v6}:){7}${v6}`,
      `(?:${v6}:){1,6}:`,
      `(?:${v6}:)(?::${v6}){1,6}`,
      `(?:${v6}:){2}(?::${v6}){1,5}`,
      `(?:${v6}:){3}(?::${v6}){1,4}`,
      `(?:${v6}:){4}(?::${v6}){1,3}`,
      `(?:${v6}:){5}(?::${v6}){1,2}`,
      `(?:${v6}:){6}(?::${v6})`,
      `:(?::${v6}){1,6}`,
      `${v6}?::`,
      `(?:0:){6}(?:${v6}\\.){3}${v6}`,
      `::(?:ffff:)?(?:${v6}\\.){3}${v6}`,
      `(?:0:){5}ffff:(?:${v6}\\.){3}${v6}`,
    ].join('|') +
    ')$',
  'i',
);
const hostname = new RegExp(`^${label}(?:\\.${label})*$`, 'iu');

/**
 * ansible's parse_address: a host name, IPv4 or IPv6 address (with `[x:y]` ranges when allowed)
 * and an optional port. Returns null where ansible raises "Not a valid network hostname".
 */
export function parseAddress(address: string, allowRanges = false): { host: string; port?: number } | null {
  let port: number | undefined;
  for (const re of [bracketedHostPort, hostPort]) {
    const m = re.exec(address);
    if (m) {
      address = m[1]!;
      port = Number(m[2]);
    }
  }
  if (!ipv4.test(address) && !ipv6.test(address) && !hostname.test(address)) return null;
  if (!allowRanges && address.includes('[')) return null;
  return port === undefined ? { host: address } : { host: address, port };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Host names one host pattern (`web[0:99]`) may expand to; counted before expanding (README.md, Limits). */
export const MAX_RANGE_HOSTS = 100_000;

/** A host range that expands to more than `limit` names; `size` is how many it would. */
export class HostRangeTooLarge extends Error {
  constructor(
    readonly pattern: string,
    readonly size: number,
    readonly limit: number,
  ) {
    super(`host range '${pattern}' expands to ${countText(size)} hosts, more than ${limit.toLocaleString('en-US')}`);
  }
}

/** 10,000,000; past 2^53 (`web[0:99999999999999999999]`) the count is not exact: "far more". */
export const countText = (n: number) => (Number.isSafeInteger(n) ? n.toLocaleString('en-US') : 'far more');

/** The first `[a:b(:step)]` of `line`: what surrounds it, and its values without listing them. */
interface FirstRange {
  readonly head: string;
  readonly tail: string;
  readonly count: number;
  value(i: number): string;
}

/** ansible's expand_hostname_range, for the first range of `line`: its checks and its values. */
function firstRange(line: string): FirstRange {
  const open = line.indexOf('[');
  const close = line.indexOf(']', open);
  if (open < 0 || close < 0) throw new Error(`unbalanced brackets in '${line}'`);
  // Python: line.replace('[', '|', 1).replace(']', '|', 1).split('|') must give exactly 3 parts.
  const head = line.slice(0, open);
  const range = line.slice(open + 1, close);
  const tail = line.slice(close + 1);
  if (range.includes('|') || head.includes('|') || tail.includes('|'))
    throw new Error(`'|' is not allowed in a host range`);
  const bounds = range.split(':');
  if (bounds.length !== 2 && bounds.length !== 3)
    throw new Error(`host range [${range}] must be begin:end or begin:end:step`);
  const beg = bounds[0] || '0';
  const end = bounds[1]!;
  const step = bounds.length === 3 ? Number(bounds[2]) : 1;
  if (!end) throw new Error(`host range [${range}] must specify an end value`);
  if (!Number.isInteger(step) || step <= 0 || !/^[0-9]+$/.test(bounds[2] ?? '1'))
    throw new Error(`host range [${range}]: the step must be a positive integer`);
  let fill = (x: string | number) => String(x);
  if (beg[0] === '0' && beg.length > 1) {
    // A leading zero asks for fixed-width numbers: node[001:010] -> node001 ... node010.
    if (beg.length !== end.length)
      throw new Error(`host range [${range}] must use begin and end of equal length (zero padding is kept)`);
    fill = (x) => String(x).padStart(beg.length, '0');
  }
  const ib = LETTERS.indexOf(beg);
  const ie = LETTERS.indexOf(end);
  if (ib >= 0 && ie >= 0) {
    if (ib > ie) throw new Error(`host range [${range}] must have begin <= end`);
    return { head, tail, count: Math.floor((ie - ib) / step) + 1, value: (i) => fill(LETTERS[ib + i * step]!) };
  }
  if (!/^[0-9]+$/.test(beg) || !/^[0-9]+$/.test(end))
    throw new Error(`host range [${range}] must be numeric (0:9, 001:010) or single letters (a:f)`);
  const [b, e] = [Number(beg), Number(end)];
  return { head, tail, count: e < b ? 0 : Math.floor((e - b) / step) + 1, value: (i) => fill(b + i * step) };
}

/** How many names `line`'s ranges expand to, without expanding them (each range's checks included). */
export function hostRangeSize(line: string): number {
  let size = 1;
  // The names of one range differ only in the value put in: the rest of the line, and so the
  // ranges after it, are the same for each, so the sizes multiply.
  for (let rest = line; size > 0 && rest.includes('['); ) {
    const range = firstRange(rest);
    size *= range.count;
    rest = range.tail;
  }
  return size;
}

/**
 * ansible's expand_hostname_range: the first `[a:b(:step)]` expanded, then the rest for each of
 * its names, in that order. Counted first: more than `limit` names is a HostRangeTooLarge, before
 * any is made.
 */
export function expandHostRange(line: string, limit = MAX_RANGE_HOSTS): string[] {
  const size = hostRangeSize(line);
  if (size > limit) throw new HostRangeTooLarge(line, size, limit);
  // Range by range, left to right: each name so far followed by each value of the next range.
  let names = [''];
  let rest = line;
  while (names.length > 0 && rest.includes('[')) {
    const range = firstRange(rest);
    const next: string[] = [];
    for (const name of names) for (let i = 0; i < range.count; i++) next.push(name + range.head + range.value(i));
    names = next;
    rest = range.tail;
  }
  return names.map((name) => name + rest);
}

/** ansible's _expand_hostpattern for a host key: names and the port written after a ':'. */
export function expandHostKey(key: string, limit = MAX_RANGE_HOSTS): { names: string[]; port?: number } {
  const parsed = parseAddress(key, true);
  const pattern = parsed?.host ?? key;
  const names = pattern.includes('[') ? expandHostRange(pattern, limit) : [pattern];
  return parsed?.port === undefined ? { names } : { names, port: parsed.port };
}
