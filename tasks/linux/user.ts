// user({ name, state?, shell?, home?, groups?, comment? }): a local account exists, with these
// settings, or does not (state: 'absent'). Written by following docs/adding-a-step.md.
// Fields, applied in this order:
//  - exists: `useradd` (with every setting given, and a home directory made when `home` is given or
//    the system's default asks for one) / `userdel` (the home directory is kept, as Ansible's user
//    module does without `remove`). Creating writes the other fields too, so they are not diffed then.
//  - shell, home, comment: `usermod -s`, `-d` (the login directory only: files are not moved), `-c`.
//  - groups: the exact set of supplementary groups (`usermod -G a,b`, as Ansible's `groups` with
//    `append: false`); the primary group is not among them.
// Fields not given are not managed. Only local accounts (/etc/passwd through getent) are managed.
//
// Probe output: `user-absent`, or `passwd NAME:x:UID:GID:COMMENT:HOME:SHELL` (getent), `primary GROUP`
// and `groups G1 G2 ...` (id -gn, id -Gn: the primary group first, then the supplementary ones).
import { diffFields, NOOP, type Change } from '../../runner/core/change.js';
import { sh, type Script } from '../../runner/core/quote.js';
import type { ExecResult, Remote, Step } from '../../runner/core/step.js';
import { z } from 'zod';
import { absolutePath, nonEmpty, oneOf, readOptions } from '../../runner/core/step-options.js';
import { runApply } from './fs-write.js';
import { ProbeLines } from './probe-lines.js';

export interface UserDesired {
  readonly name: string;
  readonly exists: boolean;
  readonly shell?: string;
  readonly home?: string;
  /** Sorted, without duplicates. */
  readonly groups?: readonly string[];
  readonly comment?: string;
}

export interface UserActual {
  readonly shell: string;
  readonly home: string;
  readonly groups: readonly string[];
  readonly comment: string;
}

const KIND = 'linux.user';
// useradd's portable names (shadow-utils refuses others by default), at most 32 characters.
const NAME = /^[a-z_][a-z0-9_-]{0,30}\$?$/;
const MANAGED = ['shell', 'home', 'comment', 'groups'] as const;

/** Supplementary groups, the exact set (existing groups): sorted, without duplicates. */
const groupList = z
  .custom<readonly string[]>((v) => Array.isArray(v), { error: 'must be a list of group names' })
  .superRefine((groups, ctx) => {
    const bad = groups.find((g) => typeof g !== 'string' || !NAME.test(g));
    if (bad !== undefined)
      ctx.addIssue({ code: 'custom', message: `must be a list of group names, got ${JSON.stringify(bad)}` });
  })
  .transform((groups) => Object.freeze([...new Set(groups)].sort()));

const Options = z
  .strictObject({
    name: nonEmpty().refine((n) => NAME.test(n), {
      error: (iss) => `must be a user name (lowercase letters, digits, _ and -), got ${JSON.stringify(iss.input)}`,
    }),
    state: oneOf('present', 'absent').default('present'),
    /** Absolute path of the login shell. */
    shell: absolutePath().optional(),
    /** Absolute path of the home directory. */
    home: absolutePath().optional(),
    groups: groupList.optional(),
    /** The GECOS field (a full name). */
    comment: z
      .string()
      .refine((c) => !/[:\n\0]/.test(c), { error: 'must not contain a colon, a newline or a NUL byte' })
      .optional(),
  })
  .superRefine((o, ctx) => {
    if (o.state === 'absent' && MANAGED.some((f) => o[f] !== undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: "is 'absent': shell, home, groups and comment do not apply",
      });
  })
  .transform(({ name, state, ...settings }): UserDesired => {
    const given = Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
    return Object.freeze({ name, exists: state === 'present', ...given });
  });

export type UserOptions = z.input<typeof Options>;

export function diffUser(d: Readonly<UserDesired>, a: UserActual | null): Change {
  if (!d.exists)
    return a === null
      ? NOOP
      : { action: 'delete', fields: ['exists'], before: { exists: true }, after: { exists: false } };
  if (a === null) {
    // useradd writes every given setting at once: one field, whose after shows them.
    const given = Object.fromEntries(MANAGED.filter((f) => d[f] !== undefined).map((f) => [f, d[f]]));
    return { action: 'create', fields: ['exists'], before: { exists: false }, after: { exists: true, ...given } };
  }
  return diffFields(d, a, MANAGED);
}

export function parseUserProbe(title: string, result: ExecResult): UserActual | null {
  const lines = new ProbeLines(title, result);
  if (lines.peek() === 'user-absent') {
    lines.next('user-absent');
    lines.end();
    return null;
  }
  const entry = lines.record('passwd').split(':');
  if (entry.length !== 7) lines.fail(`a passwd entry has 7 fields, got ${entry.length}`);
  const primary = lines.record('primary');
  const all = lines.record('groups').split(' ').filter(Boolean);
  lines.end();
  const groups = [...new Set(all.filter((g) => g !== primary))].sort();
  return { comment: entry[4]!, home: entry[5]!, shell: entry[6]!, groups };
}

export function user(options: UserOptions): Step<UserDesired, UserActual | null> {
  const desired = readOptions(KIND, Options, options);
  const { name } = desired;
  const title = `user ${name}`;
  const settingFlags = (d: Readonly<UserDesired>, fields: readonly string[]): Script[] => {
    const flags: Script[] = [];
    if (fields.includes('shell')) flags.push(sh`-s ${d.shell!}`);
    if (fields.includes('home')) flags.push(sh`-d ${d.home!}`);
    if (fields.includes('comment')) flags.push(sh`-c ${d.comment!}`);
    if (fields.includes('groups')) flags.push(sh`-G ${d.groups!.join(',')}`);
    return flags;
  };
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => ({
      script: sh`if play_pw=$(getent passwd ${name}); then printf 'passwd %s\\n' "$play_pw"; printf 'primary %s\\n' "$(id -gn ${name})"; printf 'groups %s\\n' "$(id -Gn ${name})"; else echo user-absent; fi`,
      parse: (result: ExecResult) => parseUserProbe(title, result),
    }),
    diff: diffUser,
    // One command for the changed fields (useradd, usermod or userdel), not one per field.
    async apply(remote: Remote, change: Change, _actual: UserActual | null, d: Readonly<UserDesired>): Promise<void> {
      let script: Script;
      if (change.fields.includes('exists')) {
        if (!d.exists) script = sh`userdel ${d.name}`;
        else {
          // -m only when a home is given: otherwise useradd's CREATE_HOME default decides, as by hand.
          const home = d.home !== undefined ? [sh`-m`] : [];
          // An empty group list is useradd's default already (and `-G ''` names no group).
          const given = MANAGED.filter((f) => d[f] !== undefined && !(f === 'groups' && d.groups!.length === 0));
          script = sh`useradd ${[...home, ...settingFlags(d, given)]} ${d.name}`;
        }
      } else script = sh`usermod ${settingFlags(d, change.fields)} ${d.name}`;
      await runApply(remote, title, [script]);
    },
  });
}
