// A host's jump host, from the ssh arguments Ansible would pass (runner/inventory/jump-args.ts reads
// them). ssh uses the first setting it reads, and Ansible puts ansible_ssh_args, then
// ansible_ssh_common_args, then ansible_ssh_extra_args on its command line: so does play. A later
// setting that says something else is refused rather than dropped in silence.
//
// The bastion may be an inventory host's name: then its connection vars (ansible_host, port, user, key
// file) apply, as OpenSSH's ProxyJump to a Host alias applies that alias's ~/.ssh/config entry; a user
// or port written in the setting wins. Otherwise it is an address, reached on port 22 as the current
// user (as ssh would) with the host's own key file (play reads no ~/.ssh/config, so the inventory's key
// is the one it knows). A ProxyCommand's -i names the bastion's key.
import type { VarDef } from './graph.js';
import { JumpArgsError, jumpSettings, type JumpRequest, type JumpSetting } from './jump-args.js';
import type { ConnectionSpec, JumpSpec } from './model.js';
import type { Origin, Reporter } from './source.js';
import { shellWords } from './ssh-words.js';

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
      // Not ignored in silence: the file may hold what would change the connection (HostName, ProxyJump).
      if (shellWords(def.value).some((w) => w.startsWith('-F')))
        src.warn(
          def.origin,
          `${name}: -F (an ssh_config file) is not read by play: write what it sets for these hosts (host, port, user, key, ProxyJump) in the inventory`,
        );
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
  if (!first) return undefined;
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
  return resolve(src, host, first as Found & { setting: JumpRequest }, ctx);
}

function resolve(src: Reporter, host: string, found: Found & { setting: JumpRequest }, ctx: JumpContext) {
  const r = found.setting;
  const bastion = ctx.bastionOf?.(r.host);
  const jump: JumpSpec = {
    hostName: r.host,
    address: bastion?.address ?? r.host,
    port: r.port ?? bastion?.port ?? 22,
    user: r.user ?? bastion?.user ?? ctx.currentUser,
    ...keyOf(found, bastion, ctx),
  };
  // A jump setting for a whole group reaches the bastion too: through itself is straight to it.
  if (r.host === host || (jump.address === ctx.target.address && jump.port === ctx.target.port)) {
    src.warn(found.origin, `host ${host}: ${found.name}: its jump host is the host itself; connecting directly`);
    return undefined;
  }
  if (bastion?.jump) {
    src.problem(
      found.origin,
      `host ${host}: ${found.name}: its jump host ${r.host} has a jump host of its own (${bastion.jump.hostName}): ` +
        'a chain of jump hosts is not supported yet',
    );
    return undefined;
  }
  return Object.freeze(jump);
}

/** The bastion's key file and the setting it comes from: a ProxyCommand's -i, else the bastion's own
 *  key var (an inventory host), else the host's. */
function keyOf(found: Found & { setting: JumpRequest }, bastion: ConnectionSpec | undefined, ctx: JumpContext) {
  const r = found.setting;
  if (r.keyFile) return { keyFile: ctx.resolveFile(r.keyFile, found.origin), keyFrom: `${found.name} (-i)` };
  if (bastion?.keyFile) return { keyFile: bastion.keyFile, keyFrom: `${r.host}'s ${bastion.keyFrom}` };
  if (ctx.target.keyFile) return { keyFile: ctx.target.keyFile, keyFrom: ctx.target.keyFrom };
  return {};
}
