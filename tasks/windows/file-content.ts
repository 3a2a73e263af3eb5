// fileContent({ path, content | template + vars | localFile, format? }): a file on a Windows host
// holds exactly these bytes: content and template as UTF-8 (no BOM added, line ends untouched), a
// localFile byte for byte (UTF-16LE too). Field: content. Output: { changed }, true when apply wrote
// the file (for a task `triggeredBy` it).
//
// Compared by sha256. format 'json' compares parsed values instead: key order and whitespace are
// not drift, a file that is not valid JSON (a BOM included) is. The probe (Get-PlayFile) brings
// files up to 64 KiB back so that the plan can show a unified diff of UTF-8 text; for json the diff
// is between the two values pretty-printed. Secret content (a Secret, or a template with a secret var)
// is compared by sha256 only and never shown, nor fetched from the host. The write (Set-PlayFile) is
// atomic and guarded: it refuses to overwrite a file whose sha256 is no longer the one planned.
// Content over one piece (1 MiB) goes in pieces, as uploads do (send-pieces.ts: Windows PowerShell
// 5.1 refuses a call whose JSON is over 2,097,152 characters), put in place with the same guard.
// localFile is read when the step is built (a local, read-only file: a missing one is an option
// error before any host is touched).
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { z } from 'zod';
import { nonEmpty, oneOf, readOptions, stringOrSecret } from '../../runner/core/step-options.js';
import { isSecret, MASK, Secret } from '../../runner/core/secret.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { sha256Hex, textOf } from '../common/content.js';
import { fillTemplate, missingVar, missingVarMessage, templateVars } from '../common/template.js';
import { unifiedDiff } from '../common/text-diff.js';
import { invoke, probeCall } from './remote/calls.js';
import { bufferPieces, sendPieces, UPLOAD_CHUNK } from './send-pieces.js';
import type { ResultOf } from './remote/contract.js';
import { GET_FILE, SET_FILE } from './remote/ps-files.js';
import { checked, type Refuse } from './options/checked.js';
import { windowsPath } from './options/win-options.js';

export type FileFormat = 'text' | 'json';

export interface FileContentDesired {
  readonly path: string;
  /** Text (written as UTF-8), or a localFile's bytes when they are not UTF-8 text. */
  readonly content: string | Secret | Buffer;
  readonly sha256: string;
  readonly size: number;
  readonly format: FileFormat;
  /** For format json (not secret): the parsed content. */
  readonly json?: unknown;
}

export interface FileContentActual {
  readonly sha256: string;
  readonly size: number;
  /** The bytes, when the file is small enough (and the content not secret). */
  readonly content: Buffer | null;
}

export interface FileContentOutputs {
  changed: boolean;
}

/** Files up to this size come back in the probe, for text diffs and JSON comparison. */
export const FILE_TEXT_LIMIT = 64 * 1024;

function describe(secret: boolean, size: number, sha256: string): string {
  return secret ? MASK : `${size} bytes, sha256 ${sha256.slice(0, 12)}`;
}

function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

function parseJsonText(text: string | null): Parsed {
  if (text === null) return { ok: false, error: 'not UTF-8 text, or larger than 64 KiB' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, error: (e as Error).message };
  }
}

/** The diff of a desired file content against the probed file; `field` names the one field. */
export function diffContent(field: string) {
  return (d: Readonly<FileContentDesired>, a: FileContentActual | null): Change => {
    const secret = isSecret(d.content);
    const after: Fields = { [field]: describe(secret, d.size, d.sha256) };
    const newText = secret || Buffer.isBuffer(d.content) ? null : d.format === 'json' ? pretty(d.json) : d.content;
    if (a === null) {
      return {
        action: 'create',
        fields: [field],
        before: null,
        after,
        ...(newText === null ? {} : { textDiff: unifiedDiff(null, newText, { path: d.path }) }),
      };
    }
    if (a.sha256 === d.sha256) return NOOP;
    const oldText = textOf(a.content);
    let before: Fields = { [field]: describe(secret, a.size, a.sha256) };
    let textDiff: string | undefined;
    if (d.format === 'json' && !secret) {
      const old = parseJsonText(oldText);
      if (old.ok && isDeepStrictEqual(old.value, d.json)) return NOOP;
      if (!old.ok) before = { [field]: `not valid JSON (${old.error})` };
      textDiff = old.ok
        ? unifiedDiff(pretty(old.value), newText, { path: d.path })
        : oldText === null
          ? undefined
          : unifiedDiff(oldText, newText, { path: d.path });
    } else if (newText !== null && oldText !== null) {
      textDiff = unifiedDiff(oldText, newText, { path: d.path });
    }
    return { action: 'update', fields: [field], before, after, ...(textDiff ? { textDiff } : {}) };
  };
}

export function readFileActual(value: ResultOf<'Get-PlayFile'>): FileContentActual | null {
  if (value === null) return null;
  const { sha256, size, contentBase64 } = value;
  if (!/^[0-9a-f]{64}$/.test(sha256))
    throw new Error(`${GET_FILE.name} returned sha256 ${JSON.stringify(sha256)}, expected 64 lowercase hex digits`);
  return { sha256, size, content: contentBase64 === null ? null : Buffer.from(contentBase64, 'base64') };
}

/**
 * The desired state of a file, from its content; a json file's content must parse (else it is
 * refused on `source`, the option the content came from).
 */
export function fileDesired(
  path: string,
  content: string | Secret | Buffer,
  format: FileFormat,
  source: string,
  refuse: Refuse,
): FileContentDesired {
  const clear = isSecret(content) ? content.reveal() : content;
  let json: unknown;
  if (format === 'json' && Buffer.isBuffer(clear)) refuse('is not UTF-8 text (format json reads text)', source);
  if (format === 'json' && !Buffer.isBuffer(clear)) {
    try {
      json = JSON.parse(clear);
    } catch (e) {
      refuse(
        `is not valid JSON (format 'json'): ${isSecret(content) ? 'the secret does not parse' : (e as Error).message}`,
        isSecret(content) ? 'content' : source,
      );
    }
  }
  return Object.freeze({
    path,
    content,
    sha256: sha256Hex(clear),
    size: Buffer.isBuffer(clear) ? clear.length : Buffer.byteLength(clear),
    format,
    ...(format === 'json' && !isSecret(content) ? { json } : {}),
  });
}

/** A step writing `desired` to its path: the part fileContent and dockerDaemonConfig share. */
export function contentStep(
  kind: string,
  title: string,
  field: string,
  desired: FileContentDesired,
): Step<FileContentDesired, FileContentActual, FileContentOutputs> {
  const secret = isSecret(desired.content);
  return Object.freeze({
    kind,
    title,
    desired,
    probe: () => probeCall(GET_FILE, { path: desired.path, maxBytes: secret ? 0 : FILE_TEXT_LIMIT }, readFileActual),
    diff: diffContent(field),
    async apply(
      remote: Remote,
      change: Change,
      actual: FileContentActual | null,
      d: FileContentDesired,
    ): Promise<FileContentOutputs> {
      if (!change.fields.includes(field)) return { changed: false };
      const content = d.content;
      const bytes = Buffer.isBuffer(content)
        ? content
        : Buffer.from(isSecret(content) ? content.reveal() : content, 'utf8');
      const secretSource = isSecret(content) ? content.source : undefined;
      const expectedSha256 = actual?.sha256 ?? null;
      if (bytes.length > UPLOAD_CHUNK) {
        const target = { path: d.path, sha256: d.sha256, expectedSha256, secretSource };
        await sendPieces(remote, target, bufferPieces(bytes), title);
        return { changed: true };
      }
      const b64 = bytes.toString('base64');
      const contentBase64 = secretSource === undefined ? b64 : new Secret(b64, secretSource);
      await invoke(remote, SET_FILE, { path: d.path, contentBase64, expectedSha256 }, `${title}: Set-PlayFile`);
      return { changed: true };
    },
    outputs: (): FileContentOutputs => ({ changed: false }),
  });
}

const SOURCES = ['content', 'template', 'localFile'] as const;

/** The bytes of a local file: UTF-8 text is compared and shown as text, other bytes (UTF-16LE...) are sent as they are. */
function readLocal(file: string, refuse: Refuse): string | Buffer {
  try {
    const bytes = readFileSync(file);
    return textOf(bytes) ?? bytes;
  } catch (e) {
    return refuse(`cannot be read: ${(e as Error).message}`, 'localFile');
  }
}

const Options = checked(
  z.strictObject({
    path: windowsPath(),
    content: stringOrSecret().optional(),
    template: z.string().optional(),
    vars: templateVars().optional(),
    /** A file on the machine running play, sent as is. */
    localFile: nonEmpty().optional(),
    format: oneOf('text', 'json').default('text'),
  }),
  (o, refuse: Refuse): FileContentDesired => {
    const sources = SOURCES.filter((k) => o[k] !== undefined);
    if (sources.length === 0) refuse('is required (or template with vars, or localFile)', 'content');
    if (sources.length > 1)
      refuse(`cannot be combined with ${sources[0]} (give one of content, template, localFile)`, sources[1]!);
    if (o.vars !== undefined && sources[0] !== 'template') refuse('is only used with template', 'vars');
    let content: string | Secret | Buffer;
    if (o.content !== undefined) content = o.content;
    else if (o.template !== undefined) {
      const vars = o.vars ?? {};
      const missing = missingVar(o.template, vars);
      if (missing !== undefined) refuse(missingVarMessage(missing), 'vars');
      content = fillTemplate(o.template, vars);
    } else content = readLocal(o.localFile!, refuse);
    return fileDesired(o.path, content, o.format, sources[0]!, refuse);
  },
);

export type FileContentOptions = z.input<typeof Options>;

export function fileContent(
  options: FileContentOptions,
): Step<FileContentDesired, FileContentActual, FileContentOutputs> {
  const desired = readOptions('windows.fileContent', Options, options);
  return contentStep('windows.fileContent', `file ${desired.path}`, 'content', desired);
}
