// sysctl({ key, value, file? }): a kernel parameter has a value now and after a reboot.
// Fields, applied in this order:
//  - live: the value in /proc/sys/<key with dots as slashes>, written there directly. First, so
//    the kernel validates the value before it is persisted for the next boot.
//  - persisted: the last `key = value` assignment of the key in `file` (default
//    /etc/sysctl.d/99-play.conf; null when absent). That line is rewritten (or appended) in a
//    content computed from the probed file, written atomically and guarded like lineInFile.
//    Other files are never loaded (no `sysctl --system` or `-p`).
// Values are compared with whitespace runs collapsed ("32768\t60999" equals "32768 60999"); a
// number is its decimal text, and 0 is a value like any other. Keys are dotted names
// (`net.ipv4.ip_forward`); the slash form for names containing dots is not supported.
//
// Probe output: `live-base64` / <base64 lines> / `end` (then `live-unreadable` if the read failed) |
// `live-absent` (no such parameter) | `live-unreadable`, then the fs records of the
// file (see fs-probe.ts).
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { joinScripts, sh, sharesShell, type Script } from '../../runner/core/quote.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { absolutePath, describeValue, nonEmpty, readOptions } from '../../runner/core/step-options.js';
import { refuseWrongType, runApply, wrongTypeChange } from './fs-write.js';
import { ProbeLines } from './probe-lines.js';
import { normalizeSysctlValue, persistedValue, setPersisted, SYSCTL_KEY } from './sysctl-d-file.js';
import { unifiedDiff } from '../common/text-diff.js';
import { contentReadScript } from '../../runner/core/content-read.js';
import { readBase64Section } from './fs-probe.js';
import { editableProbeScript, guardedWrite, parseEditable, type EditableFile } from './text-file.js';
import { sendsOneQuickScript } from '../../runner/core/one-quick-script.js';

const KIND = 'linux.sysctl';
export const DEFAULT_SYSCTL_FILE = '/etc/sysctl.d/99-play.conf';

/** A value as given (a number is its decimal text), normalized; what is wrong with it otherwise. */
function sysctlValue(v: unknown): { value: string } | { problem: string } {
  if (typeof v === 'number')
    return Number.isSafeInteger(v)
      ? { value: String(v) }
      : { problem: `must be an integer when given as a number, got ${v}` };
  if (typeof v !== 'string') return { problem: `must be a string or a number, got ${describeValue(v)}` };
  if (v.includes('\0')) return { problem: 'must not contain a NUL byte' };
  const value = normalizeSysctlValue(v);
  return value === '' ? { problem: 'must not be empty' } : { value };
}

const problemOf = (v: unknown) => {
  const r = sysctlValue(v);
  return 'problem' in r ? r.problem : undefined;
};

const Options = z.strictObject({
  key: nonEmpty().refine((k) => SYSCTL_KEY.test(k), {
    error: (iss) =>
      `must be a dotted kernel parameter name such as net.ipv4.ip_forward, got ${JSON.stringify(String(iss.input).slice(0, 60))}`,
  }),
  value: z
    .custom<string | number>((v) => problemOf(v) === undefined, { error: (iss) => problemOf(iss.input) })
    .transform((v) => (sysctlValue(v) as { value: string }).value),
  /** Absolute path of the sysctl.d file holding the persisted value. */
  file: absolutePath().default(DEFAULT_SYSCTL_FILE),
});

export type SysctlOptions = z.input<typeof Options>;

/** Normalized: the value trimmed, whitespace runs collapsed to one space. */
export type SysctlDesired = Readonly<z.output<typeof Options>>;

export interface SysctlActual {
  /** The live value, normalized; null when the kernel has no such key. */
  readonly live: string | null;
  /** The value the file assigns, normalized; null when it does not. */
  readonly persisted: string | null;
  readonly file: EditableFile | null;
}

function procPath(key: string): string {
  return `/proc/sys/${key.replace(/\./g, '/')}`;
}

function diffSysctl(d: Readonly<SysctlDesired>, a: SysctlActual | null): Change {
  const actual = a ?? { live: null, persisted: null, file: null };
  const fields: string[] = [];
  const before: Fields = {},
    after: Fields = {};
  const warnings: string[] = [];
  let textDiff: string | undefined;
  if (actual.live !== d.value) {
    fields.push('live');
    before.live = actual.live;
    after.live = d.value;
    if (actual.live === null)
      warnings.push(
        `${procPath(d.key)} is not a kernel parameter on this host (unknown key, or its module is not loaded): apply will fail`,
      );
  }
  if (actual.file !== null && actual.file.type !== 'file') {
    const blocked = wrongTypeChange(d.file, actual.file.type, 'file', 'persisted', { persisted: d.value });
    fields.push('persisted');
    Object.assign(before, blocked.before);
    after.persisted = d.value;
    warnings.push(...blocked.warnings!);
  } else if (actual.persisted !== d.value) {
    fields.push('persisted');
    before.persisted = actual.persisted;
    after.persisted = d.value;
    const text = actual.file?.text ?? null;
    textDiff = unifiedDiff(text, setPersisted(text, d.key, d.value).text, { path: d.file });
  }
  if (fields.length === 0) return NOOP;
  return {
    action: 'update',
    fields,
    before,
    after,
    ...(textDiff !== undefined ? { textDiff } : {}),
    ...(warnings.length ? { warnings } : {}),
  };
}

/** The live value, normalized; null when the kernel has no such parameter. */
function parseLive(lines: ProbeLines, proc: string): string | null {
  const first = lines.next("'live-base64', 'live-absent' or 'live-unreadable'");
  if (first === 'live-absent') return null;
  if (first === 'live-base64') {
    const value = readBase64Section(lines);
    if (lines.peek() !== 'live-unreadable') return normalizeSysctlValue(value.toString('utf8'));
  } else if (first !== 'live-unreadable')
    lines.fail(`expected 'live-base64', got ${JSON.stringify(first.slice(0, 80))}`);
  throw new Error(`cannot read ${proc} (a write-only parameter cannot be managed idempotently)`);
}

export function sysctl(options: SysctlOptions): ShellStep<SysctlDesired, SysctlActual> {
  const desired: SysctlDesired = Object.freeze(readOptions(KIND, Options, options));
  const { key, file } = desired;
  const proc = procPath(key);
  const title = `sysctl ${key}`;

  // A directory such as /proc/sys/net/ipv4 is not a parameter: reported like an unknown key. The
  // value is read whole, as base64 (a multi-value one is tab separated, some span lines), so a read
  // cache can answer it like a file's content (content-read.ts). Not the shell's `read`: it reads a
  // byte per read(2), and the kernel prints an integer parameter only at offset 0, so `read` would
  // get "3" of "32768\t60999" (probe-processes.test.ts). `end` on a line of its own: a read cut
  // short may leave its last line open.
  const liveScript = sh`if [ -f ${proc} ] && [ -r ${proc} ]; then echo live-base64; play_bad=; ${contentReadScript(proc)} || play_bad=1; printf '\\nend\\n'; [ -z "$play_bad" ] || echo live-unreadable
elif [ -f ${proc} ]; then echo live-unreadable; else echo live-absent; fi`;

  return sendsOneQuickScript({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: sharesShell(joinScripts('sh', [liveScript, editableProbeScript(file)])),
      // Guesses the host confirms by digest: the kernel prints the value and a newline, and a file of
      // its own holds the one line. Any other value or file is read as always.
      expect: new Map([
        [proc, `${desired.value}\n`],
        [file, setPersisted(null, key, desired.value).text],
      ]),
      parse: (result: ExecResult): SysctlActual => {
        const lines = new ProbeLines(title, result);
        const live = parseLive(lines, proc);
        const fileState = parseEditable(lines, file);
        lines.end();
        return { live, persisted: persistedValue(fileState?.text ?? null, key), file: fileState };
      },
    }),
    diff: diffSysctl,
    // Its state is readable as soon as its apply script exits: the re-probe rides in the same round trip.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, actual: SysctlActual | null, d: Readonly<SysctlDesired>) {
      const current = actual?.file ?? null;
      const scripts: Script[] = [];
      let stdin: string | undefined;
      await applyFields(change, ['live', 'persisted'], {
        live: async () => {
          scripts.push(sh`printf '%s\\n' ${d.value} > ${procPath(d.key)}`);
        },
        persisted: async () => {
          refuseWrongType(d.file, current?.entry ?? null, 'file');
          const write = guardedWrite(d.file, current, setPersisted(current?.text ?? null, d.key, d.value).text);
          scripts.push(write.script);
          stdin = write.stdin;
        },
      });
      await runApply(remote, title, scripts, stdin);
    },
  });
}
