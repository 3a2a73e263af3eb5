// How powershell.exe writes its error stream to a redirected stderr over SSH: a CLIXML document
// (runner/transport/powershell/clixml.ts decodes it).
export function clixml(text: string): string {
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r/g, '_x000D_')
    .replace(/\n/g, '_x000A_');
  return `#< CLIXML\r\n<Objs Version="1.1.0.1" xmlns="http://schemas.microsoft.com/powershell/2004/04"><S S="Error">${escaped}</S></Objs>`;
}
