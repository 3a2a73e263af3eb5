// directory({ path, mode?, owner?, group? }): a directory exists with the given attributes.
// Fields: exists, mode, owner, group (unset attributes are not managed). A symbolic link to a
// directory counts as the directory (mode and owner are those of its target, as chmod/chown act
// on the target). A path held by anything else (a file, a dangling link, a socket) is never
// replaced: the plan says `update exists` with a warning, and apply refuses without touching it.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import type { Script } from '../../runner/core/quote.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { absolutePath, fileMode, principal, readOptions } from '../../runner/core/step-options.js';
import {
  type FsEntry,
  fsProbeScript,
  namesNeeded,
  parseFsProbe,
  principalMatches,
  principalsView,
} from './fs-probe.js';
import { chmodScript, ownershipSetters, mkdirScript, refuseWrongType, runApply, wrongTypeChange } from './fs-write.js';
import { ProbeLines } from './probe-lines.js';
import { sendsOneQuickScript } from '../../runner/core/one-quick-script.js';

const Options = z.strictObject({
  /** Absolute path; created with its missing parents (mkdir -p). */
  path: absolutePath(),
  /** Octal mode as a string, '0755' or '755'. */
  mode: fileMode().optional(),
  owner: principal().optional(),
  group: principal().optional(),
});

export type DirectoryOptions = z.input<typeof Options>;

export interface DirectoryDesired {
  readonly path: string;
  readonly exists: true;
  readonly mode?: string;
  readonly owner?: string;
  readonly group?: string;
}

const KIND = 'linux.directory';
const FIELDS = ['exists', 'mode', 'owner', 'group'] as const;

function diffDirectory(d: Readonly<DirectoryDesired>, a: FsEntry | null): Change {
  const managed = FIELDS.filter((f) => d[f] !== undefined);
  const after = (fields: readonly string[]): Fields =>
    Object.fromEntries(fields.map((f) => [f, d[f as keyof DirectoryDesired]]));
  if (a === null) return { action: 'create', fields: managed, before: null, after: after(managed) };
  if (a.type !== 'directory') return wrongTypeChange(d.path, a.type, 'directory', 'exists', { exists: true });
  const st = a.stat!;
  // A numeric owner or group is compared with (and shown as) the id.
  const actual: Fields = {
    mode: st.mode,
    ...principalsView(d, st),
  };
  const changed = managed.filter((f) =>
    f === 'mode'
      ? d.mode !== st.mode
      : f === 'owner'
        ? !principalMatches(d.owner!, st.owner, st.uid)
        : f === 'group'
          ? !principalMatches(d.group!, st.group, st.gid)
          : false,
  );
  if (changed.length === 0) return NOOP;
  return {
    action: 'update',
    fields: changed,
    before: Object.fromEntries(changed.map((f) => [f, actual[f]])),
    after: after(changed),
  };
}

export function directory(options: DirectoryOptions): ShellStep<DirectoryDesired, FsEntry> {
  const o = readOptions(KIND, Options, options);
  const desired: DirectoryDesired = Object.freeze({
    path: o.path,
    exists: true as const,
    mode: o.mode,
    owner: o.owner,
    group: o.group,
  });
  const { path } = desired;
  const title = `directory ${path}`;
  const probeOptions = { follow: true, names: namesNeeded(o.owner, o.group) };

  return sendsOneQuickScript({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: fsProbeScript(path, probeOptions),
      parse: (result: ExecResult) => {
        const lines = new ProbeLines(title, result);
        const entry = parseFsProbe(lines, probeOptions);
        lines.end();
        return entry;
      },
    }),
    diff: diffDirectory,
    // Its state is readable as soon as its apply script exits: the re-probe rides in the same round trip.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, actual: FsEntry | null, d: Readonly<DirectoryDesired>): Promise<void> {
      const { path } = d;
      refuseWrongType(path, actual, 'directory');
      const scripts: Script[] = [];
      // A directory made with its mode needs no chmod after it (mkdirScript).
      const withMode = change.fields.includes('mode') ? d.mode : undefined;
      await applyFields(change, FIELDS, {
        exists: async () => {
          scripts.push(mkdirScript(path, withMode));
        },
        mode: async () => {
          if (!change.fields.includes('exists')) scripts.push(chmodScript(path, d.mode!, true));
        },
        ...ownershipSetters(path, change, d, (s) => scripts.push(...s)),
      });
      await runApply(remote, title, scripts);
    },
  });
}
