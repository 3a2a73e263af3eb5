// Windows PowerShell 5.1 started with -EncodedCommand writes its error stream to a piped stderr (as
// over SSH) as CLIXML: `#< CLIXML`, then an <Objs> document of records, <S S="Error">one line of the
// error's text_x000D__x000A_</S> per line, warnings and verbose messages as <S S="warning"> and
// <S S="verbose">, progress as <Obj S="progress"> (skipped here). decodeClixml turns it back into the
// text a person would have seen; other stderr passes through unchanged. errorReason keeps what a
// failure is about: the messages of the error records, without their position and category lines.

const XML_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeString(s: string): string {
  // The XML layer first, then PowerShell's own escapes (_xHHHH_; a literal `_x` arrives as _x005F_x).
  const xml = s.replace(/&(lt|gt|amp|quot|apos|#x[0-9A-Fa-f]+|#\d+);/g, (_m, e: string) =>
    e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : XML_ENTITIES[e]!,
  );
  return xml.replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export function decodeClixml(stderr: string): string {
  if (!stderr.includes('#< CLIXML')) return stderr;
  const out: string[] = [];
  const before = stderr.slice(0, stderr.indexOf('#< CLIXML')).trim();
  if (before) out.push(`${before}\n`);
  for (const m of stderr.matchAll(/<S S="(\w+)">([\s\S]*?)<\/S>/g)) {
    const stream = m[1]!.toLowerCase();
    const text = decodeString(m[2]!);
    out.push(stream === 'error' ? text : `${stream.toUpperCase()}: ${text}`);
  }
  return out.join('').replace(/\r\n/g, '\n').replace(/\n+$/, '');
}

/** A line of 5.1's error view that says where an error happened or what kind it is, not what it is. */
const VIEW_DETAIL = /^(At (line:\d+|.+:\d+) char:\d+|\+ .*|\s+\+ (CategoryInfo|FullyQualifiedErrorId) +: .*|\s*)$/;

/**
 * What failed, from decoded stderr: each error record's message (the lines before its `At line:`
 * position and `+ CategoryInfo` lines), one per line. Text that is not in that view is returned as is.
 */
export function errorReason(decoded: string): string {
  const lines = decoded.split('\n');
  if (!lines.some((l) => /^\s+\+ FullyQualifiedErrorId +: /.test(l))) return decoded.trim();
  const reasons: string[] = [];
  let current: string[] = [];
  for (const line of lines) {
    if (VIEW_DETAIL.test(line.trimEnd())) {
      if (current.length) reasons.push(current.join(' '));
      current = [];
    } else current.push(line.trim());
  }
  if (current.length) reasons.push(current.join(' '));
  return reasons.join('\n');
}
