// The two matchers of Ansible host patterns, with Python's semantics in JavaScript regexes:
// shell globs as Python's fnmatch.translate builds them (3.11), and `~regex` terms as re.match
// runs them (anchored at the start only, not at the end).

const STAR = Symbol('star');

function escapeChar(c: string): string {
  return /[\\^$.*+?()[\]{}|/]/.test(c) ? `\\${c}` : c;
}

/** Escapes the brackets of a Python character-class body that JavaScript would read as syntax. */
function jsClassBody(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') {
      out += c + (body[i + 1] ?? '');
      i++;
    } else out += c === '[' || c === ']' ? `\\${c}` : c;
  }
  return out;
}

/** A `[...]` set starting after the `[` at `i` and ending at `j` (the `]`), as fnmatch.translate does. */
function translateSet(pat: string, i: number, j: number): string {
  let stuff = pat.slice(i, j);
  if (!stuff.includes('-')) {
    stuff = stuff.replaceAll('\\', '\\\\');
  } else {
    const chunks: string[] = [];
    let k = pat[i] === '!' ? i + 2 : i + 1;
    for (;;) {
      k = pat.indexOf('-', k);
      if (k < 0 || k >= j) break;
      chunks.push(pat.slice(i, k));
      i = k + 1;
      k = k + 3;
    }
    const chunk = pat.slice(i, j);
    if (chunk) chunks.push(chunk);
    else chunks[chunks.length - 1] += '-';
    // Remove empty ranges (such as z-a), which are invalid in a regex.
    for (let m = chunks.length - 1; m > 0; m--) {
      if (chunks[m - 1]!.slice(-1) > chunks[m]![0]!) {
        chunks[m - 1] = chunks[m - 1]!.slice(0, -1) + chunks[m]!.slice(1);
        chunks.splice(m, 1);
      }
    }
    stuff = chunks.map((s) => s.replaceAll('\\', '\\\\').replaceAll('-', '\\-')).join('-');
  }
  stuff = stuff.replace(/([&~|])/g, '\\$1');
  if (!stuff) return '(?!)';
  if (stuff === '!') return '[\\s\\S]';
  if (stuff[0] === '!') stuff = '^' + stuff.slice(1);
  else if (stuff[0] === '^' || stuff[0] === '[') stuff = '\\' + stuff;
  return `[${jsClassBody(stuff)}]`;
}

/** Python's fnmatch: the whole name must match; `*`, `?`, `[seq]`, `[!seq]`; case-sensitive. */
export function globRegExp(pat: string): RegExp {
  const parts: (string | typeof STAR)[] = [];
  let i = 0;
  while (i < pat.length) {
    const c = pat[i++]!;
    if (c === '*') {
      if (parts[parts.length - 1] !== STAR) parts.push(STAR);
    } else if (c === '?') {
      parts.push('[\\s\\S]');
    } else if (c === '[') {
      let j = i;
      if (j < pat.length && pat[j] === '!') j++;
      if (j < pat.length && pat[j] === ']') j++;
      while (j < pat.length && pat[j] !== ']') j++;
      if (j >= pat.length) parts.push('\\[');
      else {
        parts.push(translateSet(pat, i, j));
        i = j + 1;
      }
    } else {
      parts.push(escapeChar(c));
    }
  }
  // Python uses atomic groups `(?>.*?fixed)` between stars for speed; for a whole-string match a
  // lazy `.*?fixed` accepts exactly the same names.
  let body = '';
  parts.forEach((p, k) => {
    body += p === STAR ? (k === parts.length - 1 ? '[\\s\\S]*' : '[\\s\\S]*?') : p;
  });
  return new RegExp(`^(?:${body})$`);
}

/**
 * A Python regular expression (the text after `~`) as a JavaScript RegExp that matches where
 * Python's re.match would: at the start of the name, not necessarily to its end. Python-only
 * syntax that has a JavaScript spelling is translated: (?P<n>...), (?P=n), \A, \Z, leading (?imsx).
 */
export function pythonRegExp(source: string): RegExp {
  let flags = '';
  let src = source;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(src);
  if (inline) {
    for (const f of inline[1]!) {
      if (f === 'i' || f === 'm' || f === 's') flags += flags.includes(f) ? '' : f;
      else if (f !== 'u' && f !== 'a') throw new Error(`the inline flag (?${f}) has no JavaScript equivalent`);
    }
    src = src.slice(inline[0].length);
  }
  let out = '';
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const rest = src.slice(i);
    if (c === '\\') {
      const pair = src.slice(i, i + 2);
      out += inClass ? pair : pair === '\\A' ? '(?<![\\s\\S])' : pair === '\\Z' ? '(?![\\s\\S])' : pair;
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      if (src[i + 1] === '^') out += src[++i];
      if (src[i + 1] === ']') out += '\\' + src[++i]; // Python: a leading ] is a literal
    } else if (rest.startsWith('(?P<')) {
      out += '(?<';
      i += 3;
    } else if (rest.startsWith('(?P=')) {
      const end = src.indexOf(')', i);
      out += `\\k<${src.slice(i + 4, end)}>`;
      i = end;
    } else if (rest.startsWith('(?#')) {
      i = src.indexOf(')', i); // a comment
      if (i < 0) throw new Error('unterminated comment');
    } else {
      out += c;
    }
  }
  return new RegExp(`(?<![\\s\\S])(?:${out})`, flags);
}
