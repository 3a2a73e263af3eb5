// file({ path, content | template + vars, mode?, owner?, group? }): a regular file with exactly
// this content (UTF-8) and, where given, these attributes. Fields: content, mode, owner, group.
//
// Content is compared by sha256. The probe sends files of at most 64 KiB (base64) so that the
// plan can show a unified diff of a text file; of larger files only the digest. Secret content
// (a Secret, or a template with a Secret var) is never shown: before/after say '********', there
// is no text diff, and the probe brings back only the digest of the file, not its content. Writes are atomic (temp file + rename) with the final mode/ownership set
// before the rename; attributes that are not managed keep their current values (a new file gets
// 0666 & ~umask and the connecting user). The parent directory must exist (use directory()).
// A path held by a directory, a symbolic link or a special file is never replaced: the plan warns
// and apply refuses.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import type { Script } from '../../runner/core/quote.js';
import { isSecret, MASK, type Secret } from '../../runner/core/secret.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { filePath, fileMode, principal, readOptions, stringOrSecret } from '../../runner/core/step-options.js';
import {
  type FsEntry,
  fsProbeScript,
  namesNeeded,
  parseFsProbe,
  principalMatches,
  principalsView,
  sha256Hex,
  textOf,
} from './fs-probe.js';
import {
  atomicWriteScript,
  inlineContent,
  chmodScript,
  keptAttributes,
  FILE_APPLY_ORDER,
  ownershipSetters,
  refuseWrongType,
  runApply,
  wrongTypeChange,
} from './fs-write.js';
import { ProbeLines } from './probe-lines.js';
import { fillTemplate, missingVar, missingVarMessage, templateVars } from '../common/template.js';
import { unifiedDiff } from '../common/text-diff.js';
import { sendsOneQuickScript } from '../../runner/core/one-quick-script.js';

const Options = z
  .strictObject({
    path: filePath(),
    /** The whole content; a Secret stays masked everywhere. Exclusive with template. */
    content: stringOrSecret().optional(),
    /** Text with `{{ name }}` placeholders filled from vars (see template.ts). */
    template: z.string().optional(),
    vars: templateVars().optional(),
    /** Octal mode as a string, '0644' or '644'. */
    mode: fileMode().optional(),
    owner: principal().optional(),
    group: principal().optional(),
  })
  .superRefine((o, ctx) => {
    const problem = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
    if (o.content !== undefined && o.template !== undefined)
      problem('template', 'cannot be combined with content (give one of them)');
    else if (o.content === undefined && o.template === undefined)
      problem('content', 'is required (or template, with vars)');
    else if (o.template === undefined && o.vars !== undefined) problem('vars', 'is only used with template');
    else if (o.template !== undefined) {
      const missing = missingVar(o.template, o.vars ?? {});
      if (missing !== undefined) problem('vars', missingVarMessage(missing));
    }
  })
  .transform(({ content, template, vars, ...rest }) => ({
    ...rest,
    content: content ?? fillTemplate(template!, vars ?? {}),
  }));

export type FileOptions = z.input<typeof Options>;

export interface FileDesired {
  readonly path: string;
  readonly content: string | Secret;
  /** sha256 (hex) of the content's UTF-8 bytes. */
  readonly sha256: string;
  readonly size: number;
  readonly mode?: string;
  readonly owner?: string;
  readonly group?: string;
}

const KIND = 'linux.file';
const FIELDS = ['content', 'mode', 'owner', 'group'] as const;
/** Files up to this size travel in the probe, so that the plan can show a text diff. */
export const FILE_TEXT_LIMIT = 64 * 1024;

function describeContent(secret: boolean, size: number, sha256: string): string {
  return secret ? MASK : `${size} bytes, sha256 ${sha256.slice(0, 12)}`;
}

function diffFile(d: Readonly<FileDesired>, a: FsEntry | null): Change {
  const secret = isSecret(d.content);
  const desiredView: Fields = {
    content: describeContent(secret, d.size, d.sha256),
    mode: d.mode,
    owner: d.owner,
    group: d.group,
  };
  const managed = FIELDS.filter((f) => d[f] !== undefined);
  const pick = (view: Fields, fields: readonly string[]): Fields => Object.fromEntries(fields.map((f) => [f, view[f]]));
  const textDiff = (before: string | null): { textDiff?: string } =>
    secret ? {} : { textDiff: unifiedDiff(before, d.content as string, { path: d.path }) };

  if (a === null)
    return { action: 'create', fields: managed, before: null, after: pick(desiredView, managed), ...textDiff(null) };
  if (a.type !== 'file') return wrongTypeChange(d.path, a.type, 'file', 'content', { content: desiredView.content });
  const st = a.stat!;
  const actualView: Fields = {
    content: describeContent(secret, st.size, a.sha256!),
    mode: st.mode,
    ...principalsView(d, st),
  };
  const changed = managed.filter((f) =>
    f === 'content'
      ? d.sha256 !== a.sha256
      : f === 'mode'
        ? d.mode !== st.mode
        : f === 'owner'
          ? !principalMatches(d.owner!, st.owner, st.uid)
          : !principalMatches(d.group!, st.group, st.gid),
  );
  if (changed.length === 0) return NOOP;
  const oldText = textOf(a.content);
  return {
    action: 'update',
    fields: changed,
    before: pick(actualView, changed),
    after: pick(desiredView, changed),
    // Only when the old content is known text: a binary or large file gets no diff.
    ...(changed.includes('content') && oldText !== null ? textDiff(oldText) : {}),
  };
}

export function file(options: FileOptions): ShellStep<FileDesired, FsEntry> {
  const { path, content, mode, owner, group } = readOptions(KIND, Options, options);
  const clear = isSecret(content) ? content.reveal() : content;
  const desired: FileDesired = Object.freeze({
    path,
    content,
    sha256: sha256Hex(clear),
    size: Buffer.byteLength(clear),
    mode,
    owner,
    group,
  });
  const title = `file ${path}`;
  // For secret content the old content is not fetched either (it is likely an older secret):
  // only an empty file comes as content, any other as its digest.
  const probeOptions = { contentLimit: isSecret(content) ? 0 : FILE_TEXT_LIMIT, names: namesNeeded(owner, group) };

  return sendsOneQuickScript({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: fsProbeScript(path, probeOptions),
      // The host confirms the content by its digest rather than sending it (never a secret's).
      ...(typeof content === 'string' && desired.size <= probeOptions.contentLimit
        ? { expect: new Map([[path, content]]) }
        : {}),
      parse: (result: ExecResult) => {
        const lines = new ProbeLines(title, result);
        const entry = parseFsProbe(lines, probeOptions);
        lines.end();
        return entry;
      },
    }),
    diff: diffFile,
    // Its state is readable as soon as its apply script exits: the re-probe rides in the same round trip.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, actual: FsEntry | null, d: Readonly<FileDesired>): Promise<void> {
      const { path } = d;
      refuseWrongType(path, actual, 'file');
      const scripts: Script[] = [];
      let stdin: string | Secret | undefined;
      const rewritten = () => change.fields.includes('content');
      await applyFields(change, FILE_APPLY_ORDER, {
        content: async () => {
          // The new file gets its final attributes before it replaces the old one.
          const content = inlineContent(d.content);
          scripts.push(atomicWriteScript({ path, ...keptAttributes(actual, d), content }));
          if (content === undefined) stdin = d.content;
        },
        // A rewrite above already gave the new file its desired attributes.
        mode: async () => {
          if (!rewritten()) scripts.push(chmodScript(path, d.mode!, false));
        },
        ...ownershipSetters(path, change, d, (s) => {
          if (!rewritten()) scripts.push(...s);
        }),
      });
      await runApply(remote, title, scripts, stdin);
    },
  });
}
