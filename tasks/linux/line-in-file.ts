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
import type { Script } from '../../runner/core/quote.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { filePath, readOptions } from '../../runner/core/step-options.js';
import { refuseWrongType, runApply, wrongTypeChange } from './fs-write.js';
import { editLineInFile } from './line-edit.js';
import { ProbeLines } from './probe-lines.js';
import { unifiedDiff } from '../common/text-diff.js';
import { editableProbeScript, guardedWrite, parseEditable, type EditableFile } from './text-file.js';
import { sendsOneQuickScript } from '../../runner/core/one-quick-script.js';

function regexpProblem(source: string): string | undefined {
  try {
    new RegExp(source);
    return undefined;
  } catch (e) {
    return `is not a valid JavaScript regular expression: ${(e as Error).message}`;
  }
}

const Options = z.strictObject({
  path: filePath(),
  /** The whole line, without a newline (nor a '\r': it is ignored at the end of the file's lines, so could never match). */
  line: z.string().refine((l) => !/[\n\r\0]/.test(l), {
    error: 'must be one line (no newline, carriage return or NUL)',
  }),
  /** JavaScript RegExp source selecting the line to replace (the last match wins). */
  regexp: z
    .string()
    .refine((v) => v !== '', { error: 'must not be empty (it would match every line)' })
    .refine((v) => regexpProblem(v) === undefined, { error: (iss) => regexpProblem(iss.input as string) })
    .optional(),
  /** Create the file (with just the line) when it does not exist. Default false. */
  create: z.boolean().default(false),
});

export type LineInFileOptions = z.input<typeof Options>;

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

export function lineInFile(options: LineInFileOptions): ShellStep<LineInFileDesired, EditableFile> {
  const { path, line, regexp, create } = readOptions(KIND, Options, options);
  const desired: LineInFileDesired = Object.freeze({ path, line, regexp, create });
  const title = `line in ${path}`;

  return sendsOneQuickScript({
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
    async apply(remote: Remote, change: Change, actual: EditableFile | null, d: Readonly<LineInFileDesired>) {
      if (actual === null && !d.create) throw new Error(`${missingMessage(d.path)}: set create: true to create it`);
      refuseWrongType(d.path, actual?.entry ?? null, 'file');
      const scripts: Script[] = [];
      let stdin: string | undefined;
      await applyFields(change, ['line'], {
        line: async () => {
          const text = editLineInFile(
            actual?.text ?? null,
            d.line,
            d.regexp === undefined ? undefined : new RegExp(d.regexp),
          ).text;
          const write = guardedWrite(d.path, actual, text);
          scripts.push(write.script);
          stdin = write.stdin;
        },
      });
      await runApply(remote, title, scripts, stdin);
    },
  });
}
