// ansible.cfg read as Python's configparser reads it for Ansible (ansible/config/manager.py:
// `ConfigParser(inline_comment_prefixes=(';',))`, values taken with raw=True). So: `key = value` or
// `key: value` (the first `=` or `:` splits), keys in lower case, section names as written; `#` and `;`
// start a comment line, and `;` after whitespace starts an inline comment, while ` #` does not (it
// stays in the value, as Ansible keeps it); a line indented deeper than its key continues the value
// (joined with newlines, blank lines inside kept); `%(x)s` stays as written (raw: no interpolation);
// `[DEFAULT]`'s keys show through in every section. A key or section given twice is an error, as with
// configparser's strict mode. Pure: text in, sections out, or an IniError naming the line.

/** One `key = value` (continuation lines joined), with the line of its key. */
export interface IniEntry {
  readonly value: string;
  readonly line: number;
}

export interface IniFile {
  /** Sections in file order, each its keys (lower case) in file order; `[DEFAULT]` is apart. */
  readonly sections: ReadonlyMap<string, ReadonlyMap<string, IniEntry>>;
  readonly defaults: ReadonlyMap<string, IniEntry>;
}

export class IniError extends Error {
  override name = 'IniError';
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

const DEFAULT_SECTION = 'DEFAULT';
const SECTION = /^\[(.+)\]/;
const OPTION = /^(.*?)\s*([=:])\s*(.*)$/s;

/** configparser's inline comment: a `;` at the start or after whitespace. */
function inlineCommentStart(line: string): number | undefined {
  for (let i = line.indexOf(';'); i >= 0; i = line.indexOf(';', i + 1)) {
    if (i === 0 || /\s/.test(line[i - 1]!)) return i;
  }
  return undefined;
}

const isCommentLine = (line: string) => /^[#;]/.test(line.trim());

interface Pending {
  readonly lines: string[];
  readonly line: number;
}

/** The value of `key` in `section` as Ansible's `get(section, key, raw=True)` gives it (no section: none). */
export function iniValue(ini: IniFile, section: string, key: string): IniEntry | undefined {
  const s = ini.sections.get(section);
  if (!s) return undefined;
  return s.get(key) ?? ini.defaults.get(key);
}

// Long because it is one state machine: configparser's _read, line by line.
export function parseIni(text: string): IniFile {
  const sections = new Map<string, Map<string, Pending>>();
  const defaults = new Map<string, Pending>();
  let current: Map<string, Pending> | undefined;
  let sectionName: string | undefined;
  let option: string | undefined;
  let indentLevel = 0;
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n]!;
    const lineNo = n + 1;
    const comment = isCommentLine(raw) ? 0 : inlineCommentStart(raw);
    const value = raw.slice(0, comment).trim();
    if (!value) {
      // A blank line may be part of a multi-line value; a comment line is not.
      if (comment === undefined && current && option) current.get(option)!.lines.push('');
      continue;
    }
    const indent = raw.search(/\S/);
    if (current && option && indent > indentLevel) {
      current.get(option)!.lines.push(value);
      continue;
    }
    indentLevel = indent;
    const header = SECTION.exec(value);
    if (header) {
      const name = header[1]!;
      option = undefined;
      sectionName = name;
      if (name === DEFAULT_SECTION) {
        current = defaults;
        continue;
      }
      if (sections.has(name)) throw new IniError(lineNo, `section [${name}] is given twice`);
      current = new Map();
      sections.set(name, current);
      continue;
    }
    if (!current) throw new IniError(lineNo, 'a setting before any [section] header');
    const m = OPTION.exec(value);
    if (!m || !m[1]) throw new IniError(lineNo, `expected 'key = value', got '${value}'`);
    const key = m[1].trimEnd().toLowerCase();
    if (current.has(key)) throw new IniError(lineNo, `${key} is given twice in [${sectionName}]`);
    current.set(key, { lines: [m[3]!.trim()], line: lineNo });
    option = key;
  }
  const joined = (m: Map<string, Pending>) =>
    new Map([...m].map(([k, p]) => [k, { value: p.lines.join('\n').trimEnd(), line: p.line }] as const));
  return {
    sections: new Map([...sections].map(([name, keys]) => [name, joined(keys)] as const)),
    defaults: joined(defaults),
  };
}
