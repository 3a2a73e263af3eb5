// The `-o` options (and their short flags) of a host's ssh args that change how play connects, read
// as ssh reads its command line: the first value of each wins, and Ansible puts ansible_ssh_args, then
// ansible_ssh_common_args, then ansible_ssh_extra_args there. User (-l), Port (-p), IdentityFile (-i),
// ConnectTimeout, ServerAliveInterval. Jump hosts, -F and UserKnownHostsFile are read elsewhere
// (jump.ts, connection.ts). Pure: vars in, settings (with the var and option that set them) out.
import type { Setting } from './connection-defaults.js';
import type { VarDef } from './graph.js';
import { sshFlagValues } from './jump-args.js';
import type { Origin } from './source.js';

export interface SshArgOptions {
  readonly user?: Setting<string>;
  readonly port?: Setting<number>;
  /** As written: the caller resolves it from `identityOrigin`'s folder. */
  readonly identityFile?: Setting<string>;
  readonly identityOrigin?: Origin;
  readonly connectTimeoutSec?: Setting<number>;
  readonly serverAliveIntervalSec?: Setting<number>;
}

const SSH_ARG_VARS = ['ansible_ssh_args', 'ansible_ssh_common_args', 'ansible_ssh_extra_args'] as const;
const SHORT: Readonly<Record<string, keyof typeof KEYS>> = { l: 'user', p: 'port', i: 'identityfile' };
const KEYS = {
  user: 'user',
  port: 'port',
  identityfile: 'identityFile',
  connecttimeout: 'connectTimeoutSec',
  serveraliveinterval: 'serverAliveIntervalSec',
} as const;

/** Every (option, value) of one string of ssh args, in command-line order. */
function optionsOf(args: string): { key: string; value: string; shown: string }[] {
  const out: { key: string; value: string; shown: string }[] = [];
  for (const [flag, key] of Object.entries(SHORT))
    for (const value of sshFlagValues(args, flag)) out.push({ key, value, shown: `-${flag}` });
  for (const o of sshFlagValues(args, 'o')) {
    const m = /^\s*([A-Za-z]+)\s*(?:=\s*|\s+)(.*)$/s.exec(o);
    if (m && m[1]!.toLowerCase() in KEYS)
      out.push({ key: m[1]!.toLowerCase(), value: m[2]!.trim(), shown: `-o ${m[1]}` });
  }
  return out;
}

/** The var's name, or the ansible.cfg key (file:line) or ANSIBLE_* variable it came from (config-ssh-args.ts). */
function setBy(name: string, origin: Origin): string {
  if (origin.path.startsWith('ANSIBLE_')) return origin.path;
  if (origin.path.startsWith('[ssh_connection]')) return `${origin.path} (${origin.file}:${origin.line})`;
  return name;
}

/** A whole number from `lo` up; else the problem. */
function count(value: string, lo: number, hi: number): number | null {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  return n >= lo && n <= hi ? n : null;
}

/**
 * The options of the host's ssh arg vars; a value ssh would refuse is reported to `problem`.
 * Short flags and -o options of one var are not ordered among themselves (ssh would take the first of
 * either): a var that gives both for one setting is rare, and -o is what Ansible documents.
 */
export function sshArgOptions(
  vars: ReadonlyMap<string, VarDef>,
  problem: (origin: Origin, detail: string) => void,
): SshArgOptions {
  const out: Record<string, unknown> = {};
  for (const name of SSH_ARG_VARS) {
    const def = vars.get(name);
    if (typeof def?.value !== 'string') continue;
    let found: ReturnType<typeof optionsOf>;
    try {
      found = optionsOf(def.value);
    } catch {
      continue; // not splittable: connection.ts reports it
    }
    for (const { key, value, shown } of found) {
      const field = KEYS[key as keyof typeof KEYS];
      if (out[field] !== undefined) continue;
      const origin = `${setBy(name, def.origin)} (${shown})`;
      if (field === 'user' || field === 'identityFile') {
        if (value === '') problem(def.origin, `${name}: ${shown} has no value`);
        else
          Object.assign(
            out,
            { [field]: { value, origin } },
            field === 'identityFile' ? { identityOrigin: def.origin } : {},
          );
        continue;
      }
      const n = field === 'port' ? count(value, 1, 65535) : count(value, 0, 604800);
      if (n === null)
        problem(
          def.origin,
          `${name}: ${shown} ${value}: expected ${field === 'port' ? 'a port number from 1 to 65535' : 'a number of seconds'}`,
        );
      else out[field] = { value: n, origin };
    }
  }
  return out as SshArgOptions;
}
