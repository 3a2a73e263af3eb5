// ssh_config's patterns, as OpenSSH's match.c matches them: `*` and `?` wildcards (no character
// classes), case-sensitive for `Host`; comma-separated lists with `!` negation, lower-cased, for
// `Match host` and friends.

const compiled = new Map<string, RegExp>();

/** match_pattern: the whole of `s` against a `*`/`?` glob, case-sensitive. */
export function matchPattern(s: string, pattern: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    const body = [...pattern]
      .map((c) => (c === '*' ? '[^]*' : c === '?' ? '[^]' : c.replace(/[\\^$.+()[\]{}|/]/, '\\$&')))
      .join('');
    re = new RegExp(`^${body}$`, 'u');
    compiled.set(pattern, re);
  }
  return re.test(s);
}

/** match_pattern_list: 1 for a positive match, -1 when a negated subpattern matches (which wins), 0 for none. */
export function matchPatternList(s: string, list: string, lower: boolean): -1 | 0 | 1 {
  let positive = false;
  for (const part of list.split(',')) {
    const negated = part.startsWith('!');
    const sub = negated ? part.slice(1) : part;
    if (!matchPattern(s, lower ? sub.toLowerCase() : sub)) continue;
    if (negated) return -1;
    positive = true;
  }
  return positive ? 1 : 0;
}

/** match_hostname: a host name against a pattern list, both lower-cased. */
export function matchHostname(host: string, list: string): boolean {
  return matchPatternList(host.toLowerCase(), list, true) === 1;
}

/** A `Host` line's patterns against the host ssh was given: a negated match excludes the block whatever
 *  else matches; otherwise any positive match applies it. */
export function hostLineMatches(host: string, patterns: readonly string[]): boolean {
  let matched = false;
  for (const p of patterns) {
    const negated = p.startsWith('!');
    if (!matchPattern(host, negated ? p.slice(1) : p)) continue;
    if (negated) return false;
    matched = true;
  }
  return matched;
}
