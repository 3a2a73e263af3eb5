// How Windows PowerShell 5.1 (powershell.exe -EncodedCommand) writes its error stream to stderr when
// stderr is a pipe, as over SSH: `#< CLIXML`, then one <Objs> document whose records are <S S="Error">
// elements, one per line of the error's text (the default error view: message, position, category),
// warnings and verbose messages as <S S="warning"> and <S S="verbose">. Text is escaped as PowerShell's
// serializer does: XML's & < >, control characters (CR, LF...) as _xHHHH_, and a literal `_x` as
// `_x005F_x` so it is not read as an escape. runner/transport/powershell/clixml.ts reads it back.

const NAMESPACE = 'http://schemas.microsoft.com/powershell/2004/04';

function hex4(code: number): string {
  return code.toString(16).toUpperCase().padStart(4, '0');
}

export function escapeClixml(text: string): string {
  return text
    .replace(/_x/g, '_x005F_x')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/[\u0000-\u001f\ufffe\uffff]/g, (c) => `_x${hex4(c.charCodeAt(0))}_`);
}

/** The lines of a record's text, each keeping its line end. */
function lines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** stderr as powershell.exe writes it: the program's own writes as they are, then the stream records. */
export function clixml(consoleStderr: string, records: readonly (readonly [string, string])[]): string {
  if (records.length === 0) return consoleStderr;
  const body = records.flatMap(([stream, text]) => lines(text).map((l) => `<S S="${stream}">${escapeClixml(l)}</S>`));
  return `${consoleStderr}#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="${NAMESPACE}">${body.join('')}</Objs>`;
}
