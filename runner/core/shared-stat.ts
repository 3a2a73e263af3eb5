// One `stat` for every path the probes of a batch read, instead of one per probe: a fork and an exec
// cost a host about a millisecond or two each, and a stat with owner names the most of a probe's
// programs. The batch's prelude stats the paths that are directories or regular files (the others
// have no stat line) and keeps each line in a variable named after its path; a probe reads its line
// from there, or runs its own stat when the variable is unset (no prelude, or the shared stat failed).
// The owner and group names are in a line only when a probe compares them (a step given an owner or
// group by name): looking them up costs a third of a `stat`, and more where users come from a
// directory service. Lines with names are kept in other variables than lines without, so a probe
// that needs them never reads a line without them, and one that does not takes the names out of a
// line with them: what a probe prints does not depend on its batch (a guarded apply compares it).
// The names come last, joined by a colon: a name from a directory service may hold a space (an AD
// group `domain users`), never a colon (passwd and group files separate their fields with it, and AD
// refuses it in an account name), so the four numbers before them and each name parse back whole.
// A probe's programs run with LC_ALL=C: loading the host's UTF-8 locale cost each about half a
// millisecond of the host's CPU, and nothing they print to be parsed depends on it (stat's owner
// names are bytes either way). Their errors come in English, which is what play's messages quote.
import { pathKey } from './content-read.js';
import { quoteSh, raw, Script, sh } from './quote.js';

/** The fields of a stat line: mode (octal), uid, gid, size, then `owner:group` by name. */
export const STAT_FORMAT = '%a %u %g %s %U:%G';
/** The same without the names. */
export const STAT_FORMAT_IDS = '%a %u %g %s';

/** Sets `play_sz` to the size in the stat line `play_st` holds, with or without names: its fourth field. */
export const STAT_SIZE = raw('play_sz=${play_st#* * * }; play_sz=${play_sz%% *}');

/** The shell variable holding `path`'s shared stat line: a digest, so any path names a valid variable. */
export function statVariable(path: string): string {
  return `play_st_${pathKey(path)}`;
}

/** The same for a line with the owner and group names. */
export function namedStatVariable(path: string): string {
  return `play_stn_${pathKey(path)}`;
}

export interface StatLineOptions {
  /** Follow a symbolic link at the path. */
  readonly follow: boolean;
  /** The line carries the owner and group names. */
  readonly names: boolean;
}

/**
 * Sets `play_st` to the stat line of `path`: the shared one, else its own `stat`, whose status is
 * the fragment's (so `&&` after it sees a failed stat). Without `names`, a shared line with them
 * serves too, its names taken out (the line up to its fourth field: a name may hold spaces).
 */
export function statLineScript(path: string, { follow, names }: StatLineOptions): Script {
  const format = names ? STAT_FORMAT : STAT_FORMAT_IDS;
  const own = follow ? sh`LC_ALL=C stat -L -c ${format} ${path}` : sh`LC_ALL=C stat -c ${format} ${path}`;
  const named = namedStatVariable(path);
  const shared = names
    ? raw(`play_st=\${${named}-}`)
    : raw(
        `play_st=\${${statVariable(path)}-}; [ -n "$play_st" ] || [ -z "\${${named}-}" ] || play_st=\${${named}%" \${${named}#* * * * }"}`,
      );
  return sh`${shared}; { [ -n "$play_st" ] || play_st=$(${own}); }`;
}

/**
 * The prelude of a batch reading `paths`: one `stat -L` of those that are directories or files now,
 * its lines kept per path, with the names when a probe needs them for any of `named`. Null for fewer
 * than two paths: nothing to share. For a path that is a link, the line is its target's; a probe
 * that does not follow links reports the link without it.
 */
export function sharedStatScript(paths: readonly string[], named: readonly string[] = []): Script | null {
  if (paths.length < 2) return null;
  const names = named.length > 0;
  const variable = names ? namedStatVariable : statVariable;
  const lines = [
    'set --',
    ...paths.map((p, i) => {
      const q = quoteSh(p);
      return `if [ -d ${q} ] || [ -f ${q} ]; then set -- "$@" ${q}; play_in_${i}=1; else play_in_${i}=; fi`;
    }),
    "play_nl='\n'",
    `if [ $# -gt 0 ] && play_all=$(LC_ALL=C stat -L -c ${quoteSh(names ? STAT_FORMAT : STAT_FORMAT_IDS)} -- "$@" 2>/dev/null); then`,
    'play_all="$play_all$play_nl"',
    ...paths.map(
      (p, i) =>
        `if [ -n "$play_in_${i}" ]; then ${variable(p)}=\${play_all%%"$play_nl"*}; play_all=\${play_all#*"$play_nl"}; fi`,
    ),
    'fi',
  ];
  return new Script('sh', lines.join('\n'));
}
