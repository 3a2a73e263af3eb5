// The OpenSSH client configuration of one run: which files (the user's ~/.ssh/config, then
// /etc/ssh/ssh_config; or only the file of a host's `-F`), each read once, and each host's values as
// ssh(1) would obtain and expand them (hostname, user, port, identity files, known_hosts, ...), with
// where each was written. Keys that applied to a host and that play does not honour are gathered and
// told once per file (warnings.ts).
import { hostname as localHostName, homedir, userInfo } from 'node:os';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { evaluate, type At, type ConfigFileRef, type Note, type Pass, type Setting } from './evaluate.js';
import { ExpandError, expandHostName, expandPath, type Tokens } from './expand.js';
import { includedFiles, readConfigFile, type ConfigFile } from './files.js';
import { DirectiveError, type StrictHostKeyChecking } from './keywords.js';
import { UnhonouredKeys } from './warnings.js';

export type { At, Note, Setting };

/** A host's values from its ssh_config, expanded as ssh expands them; absent where no line set them. */
export interface SshHostConfig {
  /** The files read for this host, in order. */
  readonly files: readonly string[];
  readonly hostName?: Setting<string>;
  readonly user?: Setting<string>;
  readonly port?: Setting<number>;
  readonly identityFiles: readonly Setting<string>[];
  readonly identitiesOnly?: Setting<boolean>;
  readonly proxyJump?: Setting<string>;
  readonly proxyCommand?: Setting<string>;
  readonly userKnownHostsFiles?: Setting<readonly string[]>;
  readonly strictHostKeyChecking?: Setting<StrictHostKeyChecking>;
  /** Seconds. */
  readonly connectTimeout?: Setting<number>;
  readonly serverAliveInterval?: Setting<number>;
  readonly serverAliveCountMax?: Setting<number>;
  /** What ssh would refuse (a bad line, an unreadable file, a token it cannot expand). */
  readonly problems: readonly Note[];
  readonly warnings: readonly Note[];
}

export interface LookupOptions {
  /** Values the command line already set (Ansible's -o User=, -o Port=): they win and feed %r, %p, Match user. */
  readonly preset?: { readonly user?: string; readonly port?: number };
  /** A `-F FILE`: only that file is read (`none`: no file at all). */
  readonly configFile?: string;
}

export interface SshConfigOptions {
  /** Read when a host has no -F, in order; default the user's ~/.ssh/config, then /etc/ssh/ssh_config. */
  readonly files?: readonly ConfigFileRef[];
  /** Home directory for `~`, %d and Include (default os.homedir(), which follows $HOME). */
  readonly home?: string;
  readonly localUser?: string;
}

const SYSTEM_FILE = '/etc/ssh/ssh_config';

// Keys distributions set in the system-wide file (Debian's SendEnv, HashKnownHosts, GSSAPIAuthentication;
// Fedora's ForwardX11Trusted), which the operator did not write and cannot act on, and which cannot
// change where play connects, as whom, or how it checks the host's key: play sends no environment (its
// probes parse output in the host's own locale), reads hashed and plain known_hosts entries alike, offers
// no GSSAPI and no X11. Not repeated at every run from there; in the operator's own files they are warned.
const DISTRIBUTION_DEFAULTS = new Set([
  'sendenv',
  'hashknownhosts',
  'gssapiauthentication',
  'gssapidelegatecredentials',
  'forwardx11trusted',
]);

export class SshConfig {
  readonly home: string;
  readonly localUser: string;
  readonly #files: readonly ConfigFileRef[];
  readonly #read = new Map<string, ConfigFile>();
  readonly #included = new Map<string, { readonly paths: readonly string[] } | { readonly error: DirectiveError }>();
  /** The directories Includes listed and the paths they tested (files.ts includedFiles). */
  readonly #consulted = new Set<string>();
  /** This machine's name, for %l. */
  readonly localHost = localHostName();
  readonly unhonoured = new UnhonouredKeys();

  constructor(options: SshConfigOptions = {}) {
    this.home = options.home ?? homedir();
    this.localUser = options.localUser ?? currentUser();
    this.#files = options.files ?? [
      { path: join(this.home, '.ssh', 'config'), userConf: true, checkPerm: true },
      { path: SYSTEM_FILE, userConf: false, checkPerm: false },
    ];
  }

  /** Reads no file unless a host names one with -F (a library caller's default: no hidden inputs). */
  static explicitOnly(options: Omit<SshConfigOptions, 'files'> = {}): SshConfig {
    return new SshConfig({ ...options, files: [] });
  }

  /** The values of `alias` (the host name ssh would be given). */
  lookup(alias: string, options: LookupOptions = {}): SshHostConfig {
    const files = this.#filesFor(options.configFile);
    // Most hosts of a library caller's inventory: nothing to read, nothing to resolve.
    if (files.length === 0) return { files: [], identityFiles: [], problems: [], warnings: [] };
    const preset = options.preset ?? {};
    const pass = evaluate(
      {
        alias,
        preset,
        localUser: this.localUser,
        home: this.home,
        read: (p, c) => this.#readFile(p, c),
        include: (arg, userConf) => this.#include(arg, userConf),
      },
      files,
    );
    for (const u of pass.unhonoured)
      if (!(u.system && DISTRIBUTION_DEFAULTS.has(u.keyword.toLowerCase()))) this.unhonoured.add(u.at, u.keyword);
    return { files: files.map((f) => f.path), ...expanded(pass, alias, preset, this), warnings: pass.warnings };
  }

  #filesFor(configFile: string | undefined): ConfigFileRef[] {
    if (configFile === undefined) return [...this.#files];
    if (configFile.toLowerCase() === 'none') return [];
    // ssh reads -F's file as a user's file (relative Includes in ~/.ssh) but does not check its mode.
    return [{ path: configFile, userConf: true, checkPerm: false }];
  }

  // Every host of a run reads the same files and Includes: each directory is listed once per run, as
  // each file is read once.
  #include(arg: string, userConf: boolean): string[] {
    const key = `${userConf}\0${arg}`;
    let found = this.#included.get(key);
    if (!found) {
      const consulted: string[] = [];
      try {
        found = { paths: includedFiles(arg, userConf, this.home, consulted) };
      } catch (e) {
        if (!(e instanceof DirectiveError)) throw e;
        found = { error: e };
      }
      this.#included.set(key, found);
      for (const p of consulted) this.#consulted.add(p);
    }
    if ('error' in found) throw found.error;
    return [...found.paths];
  }

  /** Every file the lookups so far read (or found absent) and every path their Includes consulted:
   *  what would have to change for a lookup to answer otherwise. */
  inputs(): string[] {
    const read = [...this.#read.values()].map((f) => f.path);
    return [...new Set([...read, ...this.#consulted])];
  }

  #readFile(path: string, checkPerm: boolean): ConfigFile {
    const key = `${checkPerm}\0${path}`;
    let f = this.#read.get(key);
    if (!f) this.#read.set(key, (f = readConfigFile(path, checkPerm)));
    return f;
  }
}

/** What the pass obtained, expanded as ssh expands it once it knows the host, user and port; a value
 *  it cannot expand (an unknown token, an unset ${VAR}) is a problem naming its line. */
function expanded(
  pass: Pass,
  alias: string,
  preset: NonNullable<LookupOptions['preset']>,
  local: { readonly home: string; readonly localUser: string; readonly localHost: string },
): Omit<SshHostConfig, 'files' | 'warnings'> {
  const o = pass.obtained;
  const problems = [...pass.problems];
  const expand = <T>(s: Setting<T> | undefined, f: (v: T) => T): Setting<T> | undefined => {
    if (!s) return undefined;
    try {
      return { value: f(s.value), at: s.at };
    } catch (e) {
      if (!(e instanceof ExpandError)) throw e;
      problems.push({ at: s.at, detail: e.message });
      return undefined;
    }
  };
  const hostName = expand(o.hostname, (v) => expandHostName(v, alias));
  const tokens: Tokens = {
    host: hostName?.value ?? (isIP(alias) ? alias : alias.toLowerCase()),
    alias,
    user: preset.user ?? o.user?.value ?? local.localUser,
    port: preset.port ?? o.port?.value ?? 22,
    localUser: local.localUser,
    home: local.home,
    uid: process.getuid?.() ?? 0,
    localHost: local.localHost,
  };
  const identityFiles = o.identityfile
    .map((s) => expand(s, (v) => expandPath(v, tokens)))
    .filter((s): s is Setting<string> => s !== undefined);
  return {
    ...defined({
      hostName,
      user: o.user,
      port: o.port,
      identitiesOnly: o.identitiesonly,
      proxyJump: o.proxyjump,
      proxyCommand: o.proxycommand,
      userKnownHostsFiles: expand(o.userknownhostsfile, (v) => v.map((p) => expandPath(p, tokens))),
      strictHostKeyChecking: o.stricthostkeychecking,
      connectTimeout: o.connecttimeout,
      serverAliveInterval: o.serveraliveinterval,
      serverAliveCountMax: o.serveralivecountmax,
    }),
    identityFiles,
    problems,
  };
}

/** The entries whose value is set: no `key: undefined` in what callers compare and freeze. */
function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function currentUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.LOGNAME ?? process.env.USER ?? '';
  }
}
