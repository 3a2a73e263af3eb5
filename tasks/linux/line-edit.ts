// The new content of a file for lineInFile (Ansible's lineinfile, state=present), computed from
// the probed content. Pure, so check mode can show exactly what apply will write:
//  1. with a regexp that matches lines: the LAST matching line becomes `line` (no change if it is
//     already equal);
//  2. otherwise, if a line equal to `line` exists: no change;
//  3. otherwise `line` is appended, after a newline if the file does not end with one.
// Lines are split on '\n'; a '\r' ending a line (CRLF files) is ignored when matching and kept
// when the line is replaced. Every other byte of the file is kept as it was.

export interface LineEdit {
  /** The new content (equal to the old content when unchanged). */
  readonly text: string;
  readonly how: 'unchanged' | 'replaced' | 'appended';
  /** The line that was replaced, without its line ending; null unless replaced. */
  readonly replaced: string | null;
}

function body(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** `text` null means the file does not exist (it is then created with just the line). */
export function editLineInFile(text: string | null, line: string, regexp?: RegExp): LineEdit {
  const src = text ?? '';
  const endsWithNewline = src.endsWith('\n');
  const lines = src === '' ? [] : src.split('\n');
  if (endsWithNewline) lines.pop();
  const unchanged: LineEdit = { text: src, how: 'unchanged', replaced: null };

  if (regexp) {
    let last = -1;
    lines.forEach((l, i) => {
      if (regexp.test(body(l))) last = i;
    });
    if (last >= 0) {
      const old = lines[last]!;
      if (body(old) === line) return unchanged;
      const next = [...lines];
      next[last] = line + (old.endsWith('\r') ? '\r' : '');
      return { text: next.join('\n') + (endsWithNewline ? '\n' : ''), how: 'replaced', replaced: body(old) };
    }
  }
  if (lines.some((l) => body(l) === line)) return unchanged;
  return { text: `${src === '' || endsWithNewline ? src : `${src}\n`}${line}\n`, how: 'appended', replaced: null };
}
