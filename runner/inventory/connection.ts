// How to reach a host, from its merged variables: Ansible's connection variables with Ansible's
// aliases (where two aliases are set, the one ansible's ssh plugin lists last wins), narrowed to
// what play does: SSH only, to Linux or to Windows running PowerShell over OpenSSH. Then the OpenSSH
// client configuration, for what the vars leave unset.
import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { isSecret } from '../core/secret.js';
import { EnvRef, type ConnectionSpec, type OsFamily } from './model.js';
import type { VarDef } from './graph.js';
import type { Origin, Reporter } from './source.js';
import { becomeSpec } from './become.js';
import { type ConnectionSettings, loginUser, mergeLayers } from './connection-defaults.js';
import { pick } from './var-pick.js';
import { describe } from './vars.js';
import { shellWords } from './ssh-words.js';
import { jumpSpec, type BastionLookup } from './jump.js';
import { sshFlagValues } from './jump-args.js';
import type { SshConfig, SshHostConfig } from '../ssh-config/config.js';
import { hostFields, reportNotes } from '../ssh-config/host-fields.js';
import { withConfigSshArgs } from './config-ssh-args.js';
import { sshArgOptions } from './ssh-arg-options.js';

export { shellWords };

const SSH_CONNECTIONS = new Set([
  'ssh',
  'smart',
  'paramiko',
  'paramiko_ssh',
  'ansible.builtin.ssh',
  'ansible.builtin.paramiko_ssh',
]);
const WINDOWS_CONNECTIONS = new Set(['winrm', 'psrp', 'ansible.builtin.winrm', 'ansible.builtin.psrp']);
const SHELLS: Record<string, OsFamily> = {
  sh: 'linux',
  csh: 'linux',
  fish: 'linux',
  powershell: 'windows',
  cmd: 'windows',
};

/** `~` and `~/x` expanded, then a relative path taken from the inventory's directory. */
export function resolvePath(path: string, baseDir: string): string {
  const expanded = path === '~' ? homedir() : path.startsWith('~/') ? resolve(homedir(), path.slice(2)) : path;
  return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

/** The UserKnownHostsFile of `-o UserKnownHostsFile=PATH` / `-oUserKnownHostsFile PATH` in ssh args. */
export function knownHostsFromSshArgs(args: string): string | undefined {
  const words = shellWords(args);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const option = w === '-o' ? words[++i] : w.startsWith('-o') ? w.slice(2) : undefined;
    const m = option ? /^\s*UserKnownHostsFile(?:\s*=\s*|\s+)(\S.*)$/i.exec(option) : null;
    // ssh takes several files separated by spaces; the first is the one it writes to.
    if (m) return shellWords(m[1]!)[0];
  }
  return undefined;
}

// Asked for every host; the passwd lookup behind it is made once.
let localUser: { readonly name: string | undefined } | undefined;

function defaultUser(): string | undefined {
  localUser ??= { name: lookUpUser() };
  return localUser.name;
}

function lookUpUser(): string | undefined {
  try {
    return userInfo().username;
  } catch {
    return process.env.LOGNAME ?? process.env.USER ?? process.env.USERNAME;
  }
}

type VarText = (def: (VarDef & { name: string }) | undefined, what: string, allowEmpty?: boolean) => string | undefined;

/** A variable's value as text, or a problem naming it: only strings (non-empty unless allowed) pass. */
function textReader(src: Reporter): VarText {
  return (def, what, allowEmpty = false) => {
    if (!def) return undefined;
    if (typeof def.value === 'string' && (allowEmpty || def.value.trim())) return def.value;
    src.problem(
      def.origin,
      `${def.name} must be ${what}, got ${describe(def.value)}` +
        (def.value instanceof EnvRef ? ' (only passwords come from the environment)' : ''),
    );
    return undefined;
  };
}

/** Linux or Windows, from ansible_shell_type or a var `os`; a connection other than ssh is a problem. */
function osFamily(src: Reporter, vars: ReadonlyMap<string, VarDef>, text: VarText): OsFamily {
  const conn = pick(vars, 'ansible_connection');
  const connName = text(conn, 'a connection type such as ssh');
  if (conn && connName && !SSH_CONNECTIONS.has(connName)) {
    src.problem(
      conn.origin,
      WINDOWS_CONNECTIONS.has(connName)
        ? `ansible_connection: ${connName} is not supported: play talks to Windows over OpenSSH; ` +
            'set `ansible_connection: ssh` with `ansible_shell_type: powershell` (and install OpenSSH Server on the host)'
        : `ansible_connection: ${connName} is not supported: play connects over SSH only ` +
            '(ssh, smart and paramiko are accepted as ssh)',
    );
  }

  let os: OsFamily = 'linux';
  const shell = pick(vars, 'ansible_shell_type');
  const shellName = text(shell, 'a shell type');
  if (shell && shellName) {
    const family = SHELLS[shellName.replace(/^ansible\.builtin\./, '')];
    if (family) os = family;
    else
      src.problem(
        shell.origin,
        `ansible_shell_type '${shellName}' is not a shell ansible knows: expected sh, csh, fish, powershell or cmd`,
      );
  }
  const osVar = vars.get('os')?.value;
  if (typeof osVar === 'string' && osVar.toLowerCase() === 'windows') os = 'windows';

  return os;
}

/** ansible_port (or ansible_ssh_port); undefined when not set (ssh_config, then 22). */
function portOf(src: Reporter, vars: ReadonlyMap<string, VarDef>): number | undefined {
  const portDef = pick(vars, 'ansible_port', 'ansible_ssh_port');
  if (!portDef) return undefined;
  const v = portDef.value;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (Number.isInteger(n) && n >= 1 && n <= 65535) return n;
  src.problem(portDef.origin, `${portDef.name} must be a port number from 1 to 65535, got ${describe(v)}`);
  return undefined;
}

// In the order ansible's ssh plugin puts them on ssh's command line.
const SSH_ARG_VARS = ['ansible_ssh_args', 'ansible_ssh_common_args', 'ansible_ssh_extra_args'] as const;

/** The host's ssh_config file from `-F FILE` in its ssh args (ssh takes the last one), resolved from the var's directory. */
function configFileOf(
  src: Reporter,
  vars: ReadonlyMap<string, VarDef>,
  resolveFile: (path: string, at: Origin) => string,
): string | undefined {
  let file: string | undefined;
  for (const name of SSH_ARG_VARS) {
    const def = vars.get(name);
    // Not a string, or not splittable: reported where the args are read for known_hosts.
    if (typeof def?.value !== 'string') continue;
    try {
      for (const f of sshFlagValues(def.value, 'F')) {
        file = f.toLowerCase() === 'none' ? 'none' : resolveFile(f, def.origin);
        if (file !== 'none' && !existsSync(file))
          src.problem(def.origin, `${name}: -F ${f}: ${file} does not exist (ssh would refuse to start)`);
      }
    } catch {
      /* reported by jump.ts */
    }
  }
  return file;
}

/** The host's ssh_config values (none when play reads no ssh_config), its problems reported to `src`. */
function hostConfig(
  src: Reporter,
  sshConfig: SshConfig | undefined,
  alias: string,
  preset: { user?: string; port?: number },
  configFile: string | undefined,
): SshHostConfig | undefined {
  if (!sshConfig) return undefined;
  const c = sshConfig.lookup(alias, { preset, configFile });
  reportNotes(src, c);
  return c;
}

/**
 * The ConnectionSpec of host `host` (defined at `origin`); problems go to `src`. Relative paths are
 * taken from `baseDir` of the origin of the variable that holds them. `bastionOf` gives the connection
 * of a jump host named by its inventory name (runner/inventory/jump.ts). `sshConfig` fills what the
 * vars leave, as ssh's configuration files do when Ansible runs ssh (runner/ssh-config/). `defaults`: the
 * command's settings (-u, --private-key, -b, -k, ...: connection-defaults.ts), under the vars, over ssh_config.
 */
export function connectionSpec(
  src: Reporter,
  host: string,
  origin: Origin,
  ownVars: ReadonlyMap<string, VarDef>,
  baseDir: (origin: Origin) => string,
  bastionOf?: BastionLookup,
  sshConfig?: SshConfig,
  defaults: ConnectionSettings = {},
): ConnectionSpec {
  // ansible.cfg's ssh args are the defaults of the host's ssh arg vars; their -o options sit under its own vars.
  const vars = withConfigSshArgs(ownVars, defaults);
  const args = sshArgOptions(vars, (at, detail) => src.problem(at, detail));
  const text = textReader(src);
  const os = osFamily(src, vars, text);
  const portVar = portOf(src, vars) ?? args.port?.value;
  const userDef = pick(vars, 'ansible_user', 'ansible_ssh_user');
  const userText = text(userDef, 'a user name');
  const merged = mergeLayers(
    userDef && userText ? { remoteUser: { value: userText, origin: userDef.name } } : {},
    args.user ? { remoteUser: args.user } : {},
    defaults,
  );
  // The vars, else -u (Ansible then passes `-o User=`, which ssh reads before its files).
  const userVar = merged.remoteUser?.value;
  // ssh is given ansible_host (else the inventory name): ssh_config's Host patterns match that name.
  const alias = text(pick(vars, 'ansible_host', 'ansible_ssh_host'), 'a host name or address') ?? host;
  const resolveFile = (path: string, at: Origin) => resolvePath(path, baseDir(at));
  const configFile = configFileOf(src, vars, resolveFile);
  const cfg = hostConfig(src, sshConfig, alias, { user: userVar, port: portVar }, configFile);

  // The inventory's vars first (Ansible passes them as -o options, which ssh reads before its files).
  const configUser = cfg?.user && { value: cfg.user.value, origin: `${cfg.user.at.file}:${cfg.user.at.line}` };
  const user = loginUser(merged, configUser, defaultUser())?.value;
  if (!user)
    src.problem(
      origin,
      `host ${host}: no ansible_user, and the current user has no name to default to: set ansible_user`,
    );

  const spec: ConnectionSpec = {
    address: cfg?.hostName?.value ?? alias,
    port: portVar ?? cfg?.port?.value ?? 22,
    user: user ?? '',
    os,
  };
  const argKey = args.identityFile && {
    privateKeyFile: {
      value: resolvePath(args.identityFile.value, baseDir(args.identityOrigin!)),
      origin: args.identityFile.origin,
    },
  };
  setKeyAndPasswords(spec, vars, text, baseDir, argKey ? { ...defaults, ...argKey } : defaults);
  const become = becomeSpec(src, host, os, vars, defaults, origin);
  if (become) spec.become = become;

  const { knownHostsFile, ...fields } = cfg ? hostFields(src, cfg, spec.keyFile) : {};
  const known = knownHostsOf(src, vars, text, baseDir) ?? knownHostsFile;
  if (known) spec.knownHostsFile = known;
  Object.assign(spec, fields);
  // ssh reads its command line's -o before any config file.
  if (args.connectTimeoutSec) spec.connectTimeoutSec = args.connectTimeoutSec.value;
  if (args.serverAliveIntervalSec) spec.serverAliveIntervalSec = args.serverAliveIntervalSec.value;
  const jump = jumpSpec(src, host, vars, {
    target: spec,
    resolveFile,
    currentUser: defaultUser() ?? '',
    bastionOf,
    ...(cfg && sshConfig
      ? { sshConfig: { host: cfg, lookup: (name: string) => hostConfig(src, sshConfig, name, {}, configFile)! } }
      : {}),
  });
  if (jump) spec.jump = jump;
  return spec;
}

/**
 * The key file (the inventory's, relative to its var's directory, else --private-key's) and passwords
 * (an env lookup or a vault's Secret from the inventory, else -k's and -K's). A literal password never
 * gets here: vars.ts refuses it.
 */
function setKeyAndPasswords(
  spec: ConnectionSpec,
  vars: ReadonlyMap<string, VarDef>,
  text: VarText,
  baseDir: (origin: Origin) => string,
  defaults: ConnectionSettings,
): void {
  const keyDef = pick(vars, 'ansible_private_key_file', 'ansible_ssh_private_key_file');
  const key = text(keyDef, 'a file path');
  if (keyDef && key) {
    spec.keyFile = resolvePath(key, baseDir(keyDef.origin));
    spec.keyFrom = keyDef.name;
  } else if (!keyDef && defaults.privateKeyFile) {
    spec.keyFile = defaults.privateKeyFile.value;
    spec.keyFrom = defaults.privateKeyFile.origin;
  }
  for (const [field, names] of [
    ['password', ['ansible_password', 'ansible_ssh_pass', 'ansible_ssh_password']],
    ['becomePassword', ['ansible_become_password', 'ansible_become_pass']],
  ] as const) {
    const value = pick(vars, ...names)?.value;
    if (value instanceof EnvRef || isSecret(value)) spec[field] = value;
    else if (value === undefined && defaults[field]) spec[field] = defaults[field].value;
  }
}

/** play_known_hosts, else the first `-o UserKnownHostsFile=` of the ssh args (ssh uses the first value it is given). */
function knownHostsOf(
  src: Reporter,
  vars: ReadonlyMap<string, VarDef>,
  text: VarText,
  baseDir: (origin: Origin) => string,
): string | undefined {
  const knownDef = pick(vars, 'play_known_hosts');
  const known = text(knownDef, 'a file path');
  if (knownDef && known) return resolvePath(known, baseDir(knownDef.origin));
  for (const name of SSH_ARG_VARS) {
    const def = pick(vars, name);
    const args = text(def, 'a string of ssh options', true);
    if (!def || !args) continue;
    try {
      const file = knownHostsFromSshArgs(args);
      if (file) return resolvePath(file, baseDir(def.origin));
    } catch (e) {
      src.problem(def.origin, `${name} cannot be split into words: ${(e as Error).message}`);
    }
  }
  return undefined;
}
