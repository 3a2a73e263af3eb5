// What `play PLAYBOOK` checks before it touches any host, for ordinary and rolling runs alike: every
// private key file the run will use, and that --report can be written.
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import type { Host } from '../inventory/model.js';
import { keyFileCheck, type KeyProblem } from '../transport/ssh-auth.js';

/** Every targeted host's private key files, and its jump host's, read now: a missing or unusable key is an
 *  inventory problem (65) found before any host is touched, not an unreachable host halfway through a run.
 *  ssh_config's IdentityFiles may be missing or encrypted (ssh passes over those, the agent may hold them),
 *  but not unprotected (readable by others) or something other than a key. */
export function checkKeyFiles(hosts: readonly Host[]): void {
  const problems = new Map<string, KeyProblem | undefined>();
  /** Per key file with a problem: how the first host to use it names it, and every host using it. */
  const culprits = new Map<string, { first: string; names: string[] }>();
  for (const h of hosts) {
    const { keyFile, keyFrom, jump, identityFiles } = h.connection;
    const bastion = `its jump host ${jump?.hostName}'s`;
    const uses: (readonly [file: string | undefined, named: string, fromConfig?: true])[] = [
      [keyFile, `host ${h.name}: ${keyFrom ?? 'ansible_ssh_private_key_file'} ${keyFile}`],
      [jump?.keyFile, `host ${h.name}: ${bastion} key file ${jump?.keyFile} (${jump?.keyFrom})`],
      ...(identityFiles ?? []).map(
        (f) => [f.file, `host ${h.name}: IdentityFile ${f.file} (${f.from})`, true] as const,
      ),
      ...(jump?.identityFiles ?? []).map(
        (f) => [f.file, `host ${h.name}: ${bastion} IdentityFile ${f.file} (${f.from})`, true] as const,
      ),
    ];
    for (const [file, named, fromConfig] of uses) {
      if (!file) continue;
      if (!problems.has(file)) problems.set(file, keyFileCheck(file));
      const p = problems.get(file);
      if (!p || (fromConfig && (p.kind === 'missing' || p.kind === 'encrypted'))) continue;
      const c = culprits.get(file) ?? { first: named, names: [] };
      if (!c.names.includes(h.name)) c.names.push(h.name);
      culprits.set(file, c);
    }
  }
  const [first] = culprits;
  if (!first) return;
  const [file, { first: named, names }] = first;
  const others =
    names.length > 1
      ? ` (also for ${names.slice(1, 6).join(', ')}${names.length > 6 ? ` and ${names.length - 6} more` : ''})`
      : '';
  const more =
    culprits.size > 1
      ? `; ${culprits.size - 1} other key file${culprits.size > 2 ? 's have' : ' has'} problems too`
      : '';
  throw new InputError(`${named}: ${problems.get(file)!.problem}${others}${more}`);
}

/** --report's directory must exist and be writable before the run, not found out after it. */
export function checkReportFile(file: string): void {
  const dir = dirname(resolve(file));
  try {
    if (!statSync(dir).isDirectory()) throw new UsageError(`--report ${file}: ${dir} is not a directory`);
    accessSync(dir, constants.W_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `--report ${file}: ${code === 'ENOENT' ? `directory ${dir} does not exist` : `cannot write in ${dir} (${code})`}`,
    );
  }
}
