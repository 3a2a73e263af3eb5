// Ansible's host-pattern grammar, as ansible-core 2.14's InventoryManager evaluates it
// (split_host_pattern, order_patterns, _evaluate_patterns, _match_one_pattern, _split_subscript,
// _apply_subscript, _enumerate_matches), so `play hosts P` prints what `ansible P --list-hosts`
// prints. One deliberate difference: where Ansible warns that a term matched nothing and goes on
// ("Could not match supplied host pattern, ignoring"), we stop: a typo in `!canary` must not widen
// a run to every host.
import { resolve } from 'node:path';
import { UsageError } from '../core/errors.js';
import { InputFileError, LIMIT_FILE, readInputFile } from '../core/read-input-file.js';
import { globRegExp, pythonRegExp } from './glob.js';
import { parseAddress } from './host-range.js';
import type { Host, Inventory } from './model.js';
import { closeNames } from './suggest.js';

export interface SelectOptions {
  /** Directory `@file` paths are relative to (default: the process's). */
  cwd?: string;
}

/**
 * ansible's split_host_pattern: on commas if there are any; otherwise one pattern if the whole is a
 * host address (an IPv6 address, `host:port`, a range such as `web[1:3]`), else on ':' outside
 * brackets. Whitespace around terms is dropped.
 */
export function splitHostPattern(pattern: string): string[] {
  let terms: string[];
  if (pattern.includes(',')) terms = pattern.split(',');
  else if (parseAddress(pattern, true)) terms = [pattern];
  else terms = pattern.match(/(?:[^\s:[\]]|\[[^\]]*\])+/g) ?? [];
  return terms.map((t) => t.trim()).filter((t) => t);
}

/** ansible's order_patterns: plain terms, then `&` intersections, then `!` exclusions; `all` if no plain term. */
export function orderPatterns(terms: readonly string[]): string[] {
  const plain = terms.filter((t) => t && t[0] !== '!' && t[0] !== '&');
  const and = terms.filter((t) => t[0] === '&');
  const not = terms.filter((t) => t[0] === '!');
  return [...(plain.length ? plain : ['all']), ...and, ...not];
}

const SUBSCRIPT = /^(.+)\[(?:(-?[0-9]+)|([0-9]+)([:-])([0-9]*))\]$/;

/** A subscript as ansible keeps it: [index] is (i, null); [a:b] is (a, b) inclusive; [a:] is (a, -1). */
export type Subscript = readonly [number, number | null];

/** ansible's _split_subscript. `~regex` terms have no subscript: their brackets belong to the regex. */
export function splitSubscript(term: string): { expr: string; subscript: Subscript | null } {
  if (term[0] === '~') return { expr: term, subscript: null };
  const m = SUBSCRIPT.exec(term);
  if (!m) return { expr: term, subscript: null };
  const [, expr, idx, start, , end] = m;
  if (idx) return { expr: expr!, subscript: [Number(idx), null] };
  return { expr: expr!, subscript: [Number(start), end ? Number(end) : -1] };
}

/**
 * ansible's _apply_subscript, quirks included: [a:b] takes a..b inclusive, [a:] to the end, and an
 * end of 0 reads as "no end" (Python's falsy 0), so [2:0] is the single host [2]. Returns null
 * where Python raises IndexError.
 */
export function applySubscript<T>(items: readonly T[], subscript: Subscript | null): T[] | null {
  if (items.length === 0 || !subscript) return [...items];
  const [start, end] = subscript;
  if (end) return items.slice(start, (end === -1 ? items.length - 1 : end) + 1);
  const i = start < 0 ? items.length + start : start;
  return i >= 0 && i < items.length ? [items[i]!] : null;
}

/** Group and host names, for messages: groups in definition order, hosts in inventory order. */
export function inventoryNames(inv: Inventory): { groups: string[]; hosts: string[] } {
  return { groups: [...inv.groups.keys()], hosts: inv.hosts.map((h) => h.name) };
}

function matcher(expr: string, term: string, pattern: string): RegExp {
  try {
    return expr[0] === '~' ? pythonRegExp(expr.slice(1)) : globRegExp(expr);
  } catch (e) {
    throw new UsageError(
      `host pattern '${pattern}': invalid ${expr[0] === '~' ? 'regular expression' : 'pattern'} in '${term}': ${(e as Error).message}`,
    );
  }
}

function noMatch(inv: Inventory, expr: string, term: string, pattern: string): UsageError {
  const { groups, hosts } = inventoryNames(inv);
  const close = expr[0] === '~' ? [] : closeNames(expr, [...groups, ...hosts]);
  const bare = term.replace(/^[&!]/, '');
  const subscript =
    bare !== expr
      ? ` (the [${bare.slice(expr.length + 1, -1)}] of '${bare}' picks hosts by position among what '${expr}' matches; ` +
        'it is not a range of host names as in the inventory)'
      : '';
  return new UsageError(
    `host pattern '${pattern}': '${expr}' matches no host or group in ${(inv.sources ?? [inv.file]).join(', ')}${subscript}` +
      (close.length ? `; did you mean ${close.map((n) => `'${n}'`).join(', ')}?` : '') +
      ` (groups: ${groups.join(', ')})`,
  );
}

/** ansible's _enumerate_matches: hosts of matching groups, plus matching host names when no group
 *  matched or the term is a regex or has a glob or a dot in it. Duplicates are kept, as there. */
function enumerate(inv: Inventory, expr: string, term: string, pattern: string): string[] {
  const re = matcher(expr, term, pattern);
  const groups = [...inv.groups.keys()].filter((g) => re.test(g));
  const results = groups.flatMap((g) => inv.groups.get(g)!.hosts);
  if (groups.length === 0 || expr[0] === '~' || /[.?*[]/.test(expr)) {
    // A loop, not push(...): spreading more than ~150,000 names overflows the stack.
    for (const h of inv.fileOrder ?? inv.hosts.map((x) => x.name)) if (re.test(h)) results.push(h);
  }
  if (results.length === 0 && groups.length === 0 && expr !== 'all') throw noMatch(inv, expr, term, pattern);
  return results;
}

/** ansible's _match_one_pattern: one term, without its & or !, subscript applied. */
function matchOne(inv: Inventory, term: string, pattern: string): string[] {
  const bare = term[0] === '&' || term[0] === '!' ? term.slice(1) : term;
  const { expr, subscript } = splitSubscript(bare);
  let names: string[];
  try {
    names = enumerate(inv, expr, term, pattern);
  } catch (e) {
    // Where ansible stops (`node00[89]`: no group or host `node00` to subscript), the term is read
    // as the glob it looks like, a character class: node009, node008. Where the base matches,
    // ansible's subscript meaning stands, so `play hosts` still agrees with `ansible --list-hosts`.
    if (!subscript || !(e instanceof UsageError)) throw e;
    try {
      return enumerate(inv, bare, term, pattern);
    } catch {
      throw e;
    }
  }
  const picked = applySubscript(names, subscript);
  if (!picked) {
    throw new UsageError(
      `host pattern '${pattern}': no host matched the subscripted pattern '${bare}': '${expr}' matches ` +
        `${names.length} host${names.length === 1 ? '' : 's'}, so an index runs from 0 to ${names.length - 1} (or -${names.length} to -1)`,
    );
  }
  return picked;
}

/** `@file` terms replaced by the file's lines, one pattern per line, as ansible's --limit reads them. */
function expandFiles(terms: string[], pattern: string, cwd: string): string[] {
  return terms.flatMap((t) => {
    if (t[0] !== '@') return [t];
    return readLimitFile(resolve(cwd, t.slice(1)), t, pattern)
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l);
  });
}

/** A limit file's text; what cannot be read is a UsageError (a flag's argument) naming it. */
function readLimitFile(file: string, term: string, pattern: string): string {
  try {
    return readInputFile(file, LIMIT_FILE);
  } catch (e) {
    if (!(e instanceof InputFileError)) throw e;
    if (e.reason === 'directory')
      throw new UsageError(
        `host pattern '${pattern}': ${term}: a limit file must be a file, not a directory (${file})`,
      );
    if (e.why !== undefined)
      throw new UsageError(`host pattern '${pattern}': cannot read limit file ${file} (${e.code ?? e.why})`);
    throw new UsageError(`host pattern '${pattern}': ${term}: ${e.message}`);
  }
}

/**
 * The hosts `pattern` selects, in the order Ansible lists them, each once: `a:b` / `a,b` union,
 * `a:&b` intersection, `a:!b` exclusion, globs, `~regex`, `group[0:2]`, `all`, `*`, `@file`.
 * Throws a UsageError when a term matches no host or group, or a subscript is out of range.
 * A pattern whose terms all match but whose result is empty (`tor:&windows`) gives [].
 */
export function selectHosts(inventory: Inventory, pattern: string, options: SelectOptions = {}): Host[] {
  const terms = expandFiles(splitHostPattern(pattern), pattern, options.cwd ?? process.cwd());
  if (terms.length === 0)
    throw new UsageError(`host pattern '${pattern}' has no terms: write 'all' to select every host`);
  // Insertion-ordered and without duplicates: a union of many terms (a --limit naming a thousand
  // hosts) costs one lookup per name, not a copy of the names so far per term.
  let names = new Set<string>();
  for (const term of orderPatterns(terms)) {
    // As in ansible, a term that is exactly a host's name is that host, even if a group shares the name.
    if (inventory.host(term)) {
      names.add(term);
      continue;
    }
    const that = matchOne(inventory, term, pattern);
    if (term[0] === '!') {
      // In place: a limit file of thousands of `!host` lines must not copy the selection each time.
      for (const n of that) names.delete(n);
    } else if (term[0] === '&') {
      const keep = new Set(that);
      names = new Set([...names].filter((n) => keep.has(n)));
    } else {
      for (const n of that) names.add(n);
    }
  }
  return [...names].map((n) => inventory.host(n)!);
}
