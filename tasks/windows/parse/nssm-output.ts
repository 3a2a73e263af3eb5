// `nssm get <service> <parameter>` output (docs/field-notes.md#b-sc-qc-and-nssm-get: `nssm get kubelet Application` printed
// `C:\Windows\System32\WindowsPowerShell\v1.0\powershell.exe`). nssm writes UTF-16LE to a pipe;
// read as bytes of another encoding every other character is a NUL, so NULs are dropped, as is a
// byte-order mark. The value is the text without its line end; DependOnService prints one service
// per line. Pure.

/** The value as nssm printed it, NULs, BOM and the final line end removed. */
export function parseNssmGet(raw: string): string {
  // The byte-order mark, decoded right (U+FEFF), as Latin-1 (ÿþ) or as invalid UTF-8 (two U+FFFD).
  return raw
    .replace(/\0/g, '')
    .replace(/^(?:\uFEFF|\u00FF\u00FE|\uFFFD\uFFFD)/, '')
    .replace(/(?:\r?\n)+$/, '')
    .replace(/\r\n/g, '\n');
}

/** A multi-line parameter (DependOnService): one entry per non-empty line. */
export function parseNssmList(raw: string): string[] {
  return parseNssmGet(raw)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
