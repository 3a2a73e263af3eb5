// PowerShell run over SSH writes its error stream to stderr as CLIXML
// (`#< CLIXML` then <Objs><S S="Error">text_x000D__x000A_</S>...</Objs>). This turns it back
// into the text a person would have seen; other stderr passes through unchanged.

const XML_ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&apos;': "'" };

function decodeString(s: string): string {
  return s
    .replace(/_x([0-9A-Fa-f]{4})_/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&(lt|gt|amp|quot|apos);/g, (m) => XML_ENTITIES[m]!)
    .replace(/&#x([0-9A-Fa-f]+);/g, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)));
}

export function decodeClixml(stderr: string): string {
  if (!stderr.includes('#< CLIXML')) return stderr;
  const out: string[] = [];
  const before = stderr.slice(0, stderr.indexOf('#< CLIXML')).trim();
  if (before) out.push(before);
  for (const m of stderr.matchAll(/<S S="(Error|Warning|Verbose|Debug|Information)">([\s\S]*?)<\/S>/g)) {
    const text = decodeString(m[2]!);
    out.push(m[1] === 'Error' ? text : `${m[1]!.toUpperCase()}: ${text}`);
  }
  return out.join('').replace(/\r\n/g, '\n').replace(/\n+$/, '');
}
