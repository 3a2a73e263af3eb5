// Keys play does not honour, gathered over every host of a run and told once per file: one warning
// naming the file and each key's line, not one per host (a `Host *` block applies to all of them).

export class UnhonouredKeys {
  /** file -> line -> the keyword as written. */
  readonly #byFile = new Map<string, Map<number, string>>();

  add(at: { readonly file: string; readonly line: number }, keyword: string): void {
    let lines = this.#byFile.get(at.file);
    if (!lines) this.#byFile.set(at.file, (lines = new Map()));
    lines.set(at.line, keyword);
  }

  /** One text per file, in the order the files were first met: `play does not honour Ciphers (line 3), ...`. */
  warnings(): { file: string; detail: string }[] {
    return [...this.#byFile].map(([file, lines]) => {
      const keys = [...lines]
        .sort(([a], [b]) => a - b)
        .map(([line, keyword]) => `${keyword} (line ${line})`)
        .join(', ');
      return { file, detail: `ssh_config keys play does not honour, ignored: ${keys}` };
    });
  }
}
