// One host's pass over its ssh_config files, as ssh(1) makes it (readconf.c): lines before any Host
// or Match apply to every host; `Host` and `Match` open blocks that apply when they match; an
// Include is read in place, its lines active only where the Include line is, and it cannot change
// whether the including file's block applies; the first value obtained for a keyword wins.
import { ExpandError, expandHostName } from './expand.js';
import type { ConfigFile } from './files.js';
import type { Directive, MatchCriterion, StrictHostKeyChecking } from './keywords.js';
import { DirectiveError } from './keywords.js';
import { hostLineMatches, matchHostname, matchPatternList } from './pattern.js';

/** Where a value was written. */
export interface At {
  readonly file: string;
  readonly line: number;
}

export interface Setting<T> {
  readonly value: T;
  readonly at: At;
}

/** The values a host obtained, the first one per keyword; IdentityFile accumulates, as in ssh. */
export interface Obtained {
  hostname?: Setting<string>;
  user?: Setting<string>;
  port?: Setting<number>;
  identityfile: Setting<string>[];
  identitiesonly?: Setting<boolean>;
  proxyjump?: Setting<string>;
  proxycommand?: Setting<string>;
  userknownhostsfile?: Setting<readonly string[]>;
  stricthostkeychecking?: Setting<StrictHostKeyChecking>;
  connecttimeout?: Setting<number>;
  serveraliveinterval?: Setting<number>;
  serveralivecountmax?: Setting<number>;
}

export interface Note {
  readonly at: At | { readonly file: string; readonly line?: number };
  readonly detail: string;
}

export interface Pass {
  readonly obtained: Obtained;
  /** Lines that applied to the host with a keyword play does not honour; `system`: in the system-wide files. */
  readonly unhonoured: { readonly at: At; readonly keyword: string; readonly system: boolean }[];
  readonly problems: Note[];
  readonly warnings: Note[];
}

export interface PassInput {
  /** The host name ssh is given (Host patterns match it, case-sensitive). */
  readonly alias: string;
  /** What the command line already set (Ansible's -o User=, -o Port=): first, so it wins. */
  readonly preset: { readonly user?: string; readonly port?: number };
  readonly localUser: string;
  readonly home: string;
  readonly read: (path: string, checkPerm: boolean) => ConfigFile;
  /** The files an Include argument names (files.ts includedFiles), for a user's file or the system's. */
  readonly include: (arg: string, userConf: boolean) => string[];
}

const MAX_DEPTH = 16;

/** Reads `files` in order (each `{path, userConf, checkPerm}`) for one host. */
export function evaluate(input: PassInput, files: readonly ConfigFileRef[]): Pass {
  const pass: Pass = { obtained: { identityfile: [] }, unhonoured: [], problems: [], warnings: [] };
  const state = { active: true, aborted: false };
  for (const f of files) {
    state.active = true;
    readInto(pass, input, f, state, false, 0);
  }
  return pass;
}

export interface ConfigFileRef {
  readonly path: string;
  /** A user's file (~/.ssh/config, -F): relative Includes are in ~/.ssh. */
  readonly userConf: boolean;
  readonly checkPerm: boolean;
}

function readInto(
  pass: Pass,
  input: PassInput,
  ref: ConfigFileRef,
  state: { active: boolean; aborted: boolean },
  neverMatch: boolean,
  depth: number,
): void {
  const file = input.read(ref.path, ref.checkPerm);
  for (const p of file.problems) pass.problems.push({ at: { file: ref.path, line: p.line }, detail: p.detail });
  for (const { line, directive: d } of file.lines ?? []) {
    // ssh stops at an Include loop: so does the pass (a file that includes itself twice would not end).
    if (state.aborted) return;
    const at = { file: ref.path, line };
    if (d.kind === 'host') state.active = !neverMatch && hostLineMatches(input.alias, d.patterns);
    else if (d.kind === 'match') state.active = !neverMatch && matches(pass, input, d.criteria, at);
    else if (d.kind === 'include') {
      if (depth >= MAX_DEPTH) {
        pass.problems.push({ at, detail: `more than ${MAX_DEPTH} nested Includes (does a file include itself?)` });
        state.aborted = true;
        return;
      }
      const outer = state.active;
      for (const path of includes(pass, input, ref, d.paths, at)) {
        const inner = { path, userConf: ref.userConf, checkPerm: true };
        readInto(pass, input, inner, state, neverMatch || !outer, depth + 1);
        // An included file's Host and Match lines do not change the including block.
        state.active = outer;
      }
    } else if (state.active) obtain(pass, d, at, !ref.userConf);
  }
}

function includes(pass: Pass, input: PassInput, ref: ConfigFileRef, paths: readonly string[], at: At): string[] {
  try {
    return paths.flatMap((p) => input.include(p, ref.userConf));
  } catch (e) {
    if (!(e instanceof DirectiveError)) throw e;
    pass.problems.push({ at, detail: e.message });
    return [];
  }
}

/** Sets what the line says unless an earlier line (or the command line) already did. */
function obtain(pass: Pass, d: Directive, at: At, system: boolean): void {
  const o = pass.obtained;
  if (d.kind === 'same') return;
  if (d.kind === 'other') {
    pass.unhonoured.push({ at, keyword: d.written, system });
    return;
  }
  if (d.kind === 'host' || d.kind === 'match' || d.kind === 'include') return;
  if (d.kind === 'identityfile') {
    // ssh ignores a file named twice.
    if (!o.identityfile.some((s) => s.value === d.value)) o.identityfile.push({ value: d.value, at });
    return;
  }
  // ProxyJump and ProxyCommand: whichever comes first, the other is ignored.
  if ((d.kind === 'proxyjump' || d.kind === 'proxycommand') && (o.proxyjump || o.proxycommand)) return;
  const slot = o as unknown as Record<string, Setting<unknown> | undefined>;
  slot[d.kind] ??= { value: d.value, at };
}

/** match_cfg_line: every criterion must hold; exec, canonical and final are not evaluated (warned, skipped). */
function matches(pass: Pass, input: PassInput, criteria: readonly MatchCriterion[], at: At): boolean {
  const o = pass.obtained;
  let host = input.alias;
  try {
    if (o.hostname) host = expandHostName(o.hostname.value, input.alias);
  } catch (e) {
    if (!(e instanceof ExpandError)) throw e;
  }
  const user = input.preset.user ?? o.user?.value ?? input.localUser;
  for (const c of criteria) {
    if (!('arg' in c) || c.attr === 'exec') {
      if (c.attr === 'all') {
        if (c.negate) return false;
        continue;
      }
      pass.warnings.push({
        at,
        detail: `Match ${c.attr} is not evaluated by play: the block is skipped (write its settings in a Host block or the inventory)`,
      });
      return false;
    }
    let r: boolean;
    if (c.attr === 'host') r = matchHostname(host, c.arg);
    else if (c.attr === 'originalhost') r = matchHostname(input.alias, c.arg);
    else if (c.attr === 'user') r = matchPatternList(user, c.arg, false) === 1;
    else r = matchPatternList(input.localUser, c.arg, false) === 1;
    if (r === c.negate) return false;
  }
  return true;
}
