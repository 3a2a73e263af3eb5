// A host's jump host, from the ssh arguments Ansible would pass (runner/inventory/jump-args.ts reads
// them), else from its ssh_config (ProxyJump, or a ProxyCommand of the `ssh -W` form). ssh uses the
// first setting it reads, and Ansible puts ansible_ssh_args, then ansible_ssh_common_args, then
// ansible_ssh_extra_args on its command line, before any ssh_config file: so does play. A later
// setting in the args that says something else is refused rather than dropped in silence.
//
// The bastion may be an inventory host's name: then its connection vars (ansible_host, port, user, key
// file) apply, as OpenSSH's ProxyJump to a Host alias applies that alias's ssh_config entry; a user or
// port written in the setting wins. Otherwise its ssh_config entry applies (HostName, Port, User,
// IdentityFile), and what that leaves is ssh's default: port 22, the current user, and the host's own
// key file (the key play knows for this hop, as before play read ssh_config). A ProxyCommand's -i names
// the bastion's key.
import type { SshHostConfig } from '../ssh-config/config.js';
import { identityFilesOf, originOf } from '../ssh-config/host-fields.js';
import type { VarDef } from './graph.js';
import {
  JumpArgsError,
  jumpSettings,
  parseProxyCommand,
  parseProxyJump,
  type JumpRequest,
  type JumpSetting,
} from './jump-args.js';
import type { ConnectionSpec, JumpSpec } from './model.js';
import type { Origin, Reporter } from './source.js';

/** An inventory host's connection (its own jump left unresolved), or undefined for a name it lacks. */
export type BastionLookup = (name: string) => ConnectionSpec | undefined;

export interface JumpContext {
  /** The host's connection so far: its key file is an address bastion's default. */
  readonly target: ConnectionSpec;
  /** A path as written in a var, resolved from that var's inventory directory. */
  readonly resolveFile: (path: string, origin: Origin) => string;
  /** Who ssh logs in as when nothing says (the current user). */
  readonly currentUser: string;
  readonly bastionOf?: BastionLookup;
  /** The host's ssh_config values, and the lookup of a bastion's (with the same files). */
  readonly sshConfig?: { readonly host: SshHostConfig; lookup(alias: string): SshHostConfig };
}

// In the order ansible's ssh plugin puts them on the command line.
const SSH_ARG_VARS = ['ansible_ssh_args', 'ansible_ssh_common_args', 'ansible_ssh_extra_args'] as const;

interface Found {
  readonly setting: JumpSetting;
  readonly name: string;
  readonly origin: Origin;
}

/** Every jump setting of the host's ssh argument vars, in command-line order; problems go to `src`. */
function settingsOf(src: Reporter, host: string, vars: ReadonlyMap<string, VarDef>): Found[] {
  const found: Found[] = [];
  for (const name of SSH_ARG_VARS) {
    const def = vars.get(name);
    // Not a string, or not splittable: connection.ts reports it.
    if (typeof def?.value !== 'string') continue;
    try {
      for (const setting of jumpSettings(def.value)) found.push({ setting, name, origin: def.origin });
    } catch (e) {
      if (e instanceof JumpArgsError) src.problem(def.origin, `host ${host}: ${name}: ${e.message}`);
      else src.problem(def.origin, `${name} cannot be split into words: ${(e as Error).message}`);
    }
  }
  return found;
}

const same = (a: JumpSetting, b: JumpSetting) =>
  JSON.stringify({ ...a, form: undefined }) === JSON.stringify({ ...b, form: undefined });

const describeSetting = (s: JumpSetting) =>
  'none' in s ? `${s.form} none` : `${s.form} ${s.user ? `${s.user}@` : ''}${s.host}${s.port ? `:${s.port}` : ''}`;

/** The host's jump host, or undefined for none; problems and warnings go to `src`. */
export function jumpSpec(
  src: Reporter,
  host: string,
  vars: ReadonlyMap<string, VarDef>,
  ctx: JumpContext,
): JumpSpec | undefined {
  const [first, ...later] = settingsOf(src, host, vars);
  if (!first) {
    const configured = configSetting(src, host, ctx.sshConfig?.host);
    return configured && 'host' in configured.setting ? resolve(src, host, configured as Requested, ctx) : undefined;
  }
  const other = later.find((f) => !same(f.setting, first.setting));
  if (other) {
    src.problem(
      other.origin,
      `host ${host}: ${other.name}: ${describeSetting(other.setting)} comes after ${describeSetting(first.setting)} ` +
        `(${first.name}), which ssh would use: give the host one jump setting`,
    );
    return undefined;
  }
  if ('none' in first.setting) return undefined;
  return resolve(src, host, first as Requested, ctx);
}

type Requested = Found & { setting: JumpRequest };

/** ssh_config's ProxyJump or ProxyCommand (whichever came first); a chain is refused, another proxy
 *  program passed over with a warning (play cannot run it). */
function configSetting(src: Reporter, host: string, c: SshHostConfig | undefined): Found | undefined {
  const s = c?.proxyJump ?? c?.proxyCommand;
  if (!s) return undefined;
  const name = c?.proxyJump ? 'ProxyJump' : 'ProxyCommand';
  const origin = originOf(s.at);
  try {
    return { setting: name === 'ProxyJump' ? parseProxyJump(s.value) : parseProxyCommand(s.value), name, origin };
  } catch (e) {
    if (!(e instanceof JumpArgsError)) throw e;
    if (name === 'ProxyJump') src.problem(origin, `host ${host}: ${e.message}`);
    else src.warn(origin, `${e.message}: not honoured, play connects without it`);
    return undefined;
  }
}

function resolve(src: Reporter, host: string, found: Requested, ctx: JumpContext) {
  const r = found.setting;
  const bastion = ctx.bastionOf?.(r.host);
  const config = bastion ? undefined : ctx.sshConfig?.lookup(r.host);
  const jump: JumpSpec = {
    hostName: r.host,
    address: bastion?.address ?? config?.hostName?.value ?? r.host,
    port: r.port ?? bastion?.port ?? config?.port?.value ?? 22,
    user: r.user ?? bastion?.user ?? config?.user?.value ?? ctx.currentUser,
    ...keyOf(found, bastion, config, ctx),
  };
  // A jump setting for a whole group reaches the bastion too: through itself is straight to it.
  if (r.host === host || (jump.address === ctx.target.address && jump.port === ctx.target.port)) {
    src.warn(found.origin, `host ${host}: ${found.name}: its jump host is the host itself; connecting directly`);
    return undefined;
  }
  const own = bastion?.jump?.hostName ?? (config && ownJump(src, config, r.host));
  if (own) {
    src.problem(
      found.origin,
      `host ${host}: ${found.name}: its jump host ${r.host} has a jump host of its own (${own}): ` +
        'a chain of jump hosts is not supported yet',
    );
    return undefined;
  }
  return Object.freeze(jump);
}

/** A bastion's own jump host in ssh_config, for the refusal of a chain: none when it leads back to the
 *  bastion itself (`Host *` with `ProxyJump bastion`); another proxy program is passed over as for a host. */
function ownJump(src: Reporter, c: SshHostConfig, bastion: string): string | undefined {
  const own = configSetting(src, bastion, c);
  if (!own || 'none' in own.setting || own.setting.host === bastion) return undefined;
  return `${own.setting.host}, ${own.origin.file}:${own.origin.line}`;
}

/** The bastion's key files and the setting they come from: a ProxyCommand's -i, else the bastion's own
 *  (an inventory host's key var and ssh_config, or its ssh_config entry), else the host's key file. */
function keyOf(
  found: Requested,
  bastion: ConnectionSpec | undefined,
  config: SshHostConfig | undefined,
  ctx: JumpContext,
) {
  const r = found.setting;
  if (r.keyFile) return { keyFile: ctx.resolveFile(r.keyFile, found.origin), keyFrom: `${found.name} (-i)` };
  const ids = bastion?.identityFiles ?? (config && identityFilesOf(config));
  const identityFiles = ids?.length ? { identityFiles: ids } : {};
  if (bastion?.keyFile)
    return { keyFile: bastion.keyFile, keyFrom: `${r.host}'s ${bastion.keyFrom}`, ...identityFiles };
  if (ids?.length) return identityFiles;
  if (ctx.target.keyFile) return { keyFile: ctx.target.keyFile, keyFrom: ctx.target.keyFrom };
  return {};
}
