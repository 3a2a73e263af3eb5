// A command's environment and input (linux.command's env and stdin). Plain values are exported with
// the sh tag (quoted as data). A Secret never goes on the command line: its value travels on stdin,
// base64 on one line per secret, read by the script with `read -r` (which reads a pipe byte by byte,
// so it takes exactly its line and leaves the rest) and decoded into the variable; the command's own
// stdin follows those lines, or /dev/null when it has none.
import { z } from 'zod';
import { joinScripts, raw, type Script, sh } from '../../runner/core/quote.js';
import { isSecret, type Secret } from '../../runner/core/secret.js';

export type EnvValue = string | Secret;

/** Names the shell cannot take, or that would change how the command itself is found and run. */
const RESERVED = new Set(['PATH', 'IFS', 'ENV', 'PS4', 'SHELLOPTS', 'BASH_ENV', 'LD_PRELOAD', 'LD_LIBRARY_PATH']);

/** How a wrong value is named here: its type alone, as these messages always did. */
const typeName = (v: unknown) => (v === null ? 'null' : typeof v);

function envProblem(name: string, value: unknown): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return 'must be named with letters, digits and _ (not starting with a digit)';
  if (RESERVED.has(name) || name.startsWith('__play_')) return 'is reserved: it would change how the command is run';
  if (isSecret(value)) return undefined;
  if (typeof value !== 'string') return `must be a string or a Secret, got ${typeName(value)}`;
  if (value.includes('\0')) return 'must not contain a NUL byte';
  return undefined;
}

/** The `env` option: NAME: value, a value a string or a Secret; frozen. */
export const commandEnv = () =>
  z
    .record(
      z.string(),
      z.custom<EnvValue>(() => true),
      { error: 'must be an object of NAME: value' },
    )
    .superRefine((env, ctx) => {
      for (const [name, value] of Object.entries(env)) {
        const message = envProblem(name, value);
        if (message !== undefined) return ctx.addIssue({ code: 'custom', path: [name], message });
      }
    })
    .transform((env): Readonly<Record<string, EnvValue>> => Object.freeze({ ...env }));

/** The `stdin` option: the command's standard input, a string or a Secret. */
export const commandStdin = () =>
  z.custom<string | Secret>((v) => typeof v === 'string' || isSecret(v), {
    error: (iss) => `must be a string or a Secret, got ${typeName(iss.input)}`,
  });

/** `export NAME=value` for the plain values (what a guard's check may see too). */
export function exportPlain(env: Readonly<Record<string, EnvValue>>): Script[] {
  return Object.entries(env)
    .filter(([, v]) => !isSecret(v))
    .map(([name, v]) => sh`export ${raw(name)}=${v as string}`);
}

function secretsOf(env: Readonly<Record<string, EnvValue>>): [string, Secret][] {
  return Object.entries(env).filter((e): e is [string, Secret] => isSecret(e[1]));
}

/** The lines that read the secret values from stdin into exported variables. */
export function readSecrets(env: Readonly<Record<string, EnvValue>>): Script {
  const parts = secretsOf(env).map(
    ([name]) => sh`IFS= read -r __play_line || exit 125
${raw(name)}=$(printf '%s' "$__play_line" | base64 -d && echo x) || exit 125
${raw(name)}=\${${raw(name)}%x}
export ${raw(name)}`,
  );
  return joinScripts('sh', [...parts, ...(parts.length ? [sh`unset __play_line`] : [])]);
}

/** What the run sends on stdin: each secret's line, then the command's input; undefined when nothing. */
export function stdinOf(
  env: Readonly<Record<string, EnvValue>>,
  input: string | Secret | undefined,
): Buffer | undefined {
  const lines = secretsOf(env).map(([, s]) => `${Buffer.from(s.reveal(), 'utf8').toString('base64')}\n`);
  if (lines.length === 0 && input === undefined) return undefined;
  const rest = input === undefined ? '' : isSecret(input) ? input.reveal() : input;
  return Buffer.concat([Buffer.from(lines.join(''), 'utf8'), Buffer.from(rest, 'utf8')]);
}
