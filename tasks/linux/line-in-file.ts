// lineInFile({ path, line, regexp?, create? }): Ansible's lineinfile with state=present (see
// line-edit.ts for the exact rules). Field: line (before: the line it replaces, null when it is
// appended). `regexp` is a JavaScript RegExp source (ECMAScript syntax, no flags: not Python's
// `re`; e.g. `(?P<name>...)` is an error), tested against each line without its line ending; an
// invalid one is refused when the step is built.
//
// A missing file is created with just the line when `create: true` (default false, as in
// Ansible); with `create: false` the plan warns and apply fails. The parent directory must exist.
// The file is read whole (up to 1 MiB of UTF-8 text), the new content is computed here, and the
// write is atomic and guarded against changes made since the probe; mode and ownership are kept.
import { NOOP, type Change } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Script } from '../../runner/core/quote.js';
import { applyFields, type ExecResult, type Remote, type Step } from '../../runner/core/step.js';
import { refuseWrongType, runApply, wrongTypeChange } from './fs-write.js';
import { editLineInFile } from './line-edit.js';
import { ProbeLines } from './probe-lines.js';
import { unifiedDiff } from '../common/text-diff.js';
import { editableProbeScript, guardedWriteScript, parseEditable, type EditableFile } from './text-file.js';

export type LineInFileOptions = {
  path: string;
  /** The whole line, without a newline. */
  line: string;
  /** JavaScript RegExp source selecting the line to replace (the last match wins). */
  regexp?: string;
  /** Create the file (with just the line) when it does not exist. Default false. */
  create?: boolean;
};

export interface LineInFileDesired {
  readonly path: string;
  readonly line: string;
  readonly regexp?: string;
  readonly create: boolean;
}

const KIND = 'linux.lineInFile';

function missingMessage(path: string): string {
  return `${path} does not exist and create is false`;
}

function diffLine(d: Readonly<LineInFileDesired>, a: EditableFile | null): Change {
  if (a === null) {
    if (!d.create) {
      return {
        action: 'create',
        fields: ['line'],
        before: null,
        after: { line: d.line },
        warnings: [`${missingMessage(d.path)}: apply will fail`],
      };
    }
    return {
      action: 'create',
      fields: ['line'],
      before: null,
      after: { line: d.line },
      textDiff: unifiedDiff(null, `${d.line}\n`, { path: d.path }),
    };
  }
  if (a.type !== 'file') return wrongTypeChange(d.path, a.type, 'file', 'line', { line: d.line });
  const edit = editLineInFile(a.text, d.line, d.regexp === undefined ? undefined : new RegExp(d.regexp));
  if (edit.how === 'unchanged') return NOOP;
  return {
    action: 'update',
    fields: ['line'],
    before: { line: edit.replaced },
    after: { line: d.line },
    textDiff: unifiedDiff(a.text, edit.text, { path: d.path }),
  };
}

export function lineInFile(options: LineInFileOptions): Step<LineInFileDesired, EditableFile> {
  const r = new OptionReader(KIND, options as Options);
  r.only(['path', 'line', 'regexp', 'create']);
  const path = r.absolutePath('path');
  if (path === '/') r.fail('path', 'must name a file, not /');
  const line = r.string('line');
  // A '\r' is ignored at the end of the file's lines, so a line containing one could never match.
  if (/[\n\r\0]/.test(line)) r.fail('line', 'must be one line (no newline, carriage return or NUL)');
  const regexp = r.string('regexp', 'optional');
  if (regexp === '') r.fail('regexp', 'must not be empty (it would match every line)');
  if (regexp !== undefined) {
    try {
      new RegExp(regexp);
    } catch (e) {
      r.fail('regexp', `is not a valid JavaScript regular expression: ${(e as Error).message}`);
    }
  }
  const desired: LineInFileDesired = Object.freeze({ path, line, regexp, create: r.boolean('create', false) });
  const title = `line in ${path}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: editableProbeScript(path),
      parse: (result: ExecResult) => {
        const lines = new ProbeLines(title, result);
        const actual = parseEditable(lines, path);
        lines.end();
        return actual;
      },
    }),
    diff: diffLine,
    // Its state is readable as soon as its apply script exits: the re-probe rides in the same round trip.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, actual: EditableFile | null): Promise<void> {
      if (actual === null && !desired.create) throw new Error(`${missingMessage(path)}: set create: true to create it`);
      refuseWrongType(path, actual?.entry ?? null, 'file');
      const scripts: Script[] = [];
      let stdin: string | undefined;
      await applyFields(change, ['line'], {
        line: async () => {
          stdin = editLineInFile(
            actual?.text ?? null,
            line,
            regexp === undefined ? undefined : new RegExp(regexp),
          ).text;
          scripts.push(guardedWriteScript(path, actual));
        },
      });
      await runApply(remote, title, scripts, stdin);
    },
  });
}
