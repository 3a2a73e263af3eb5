// command({ command, creates?, removes?, unless?, chdir?, env?, stdin?, changedWhen? }): runs a
// command, at most when its guards say it is needed (as Ansible's command module).
//  - `command` as an argv array: run directly (exec), each element one word, so values in it are
//    data. argv[0] is looked up in PATH and must not start with '-'.
//  - `command` as a string: shell code run by `/bin/sh -c`. It is code written by the playbook
//    author, not data: never build it from inventory values (use the argv form for those).
// Guards, read by the probe (batched with the host's other probes): `creates` (an absolute path:
// noop when it exists), `removes` (noop when it does not exist), `unless` (shell code run in `chdir`
// with the plain `env` values: noop when it exits 0; it must not change anything). With a guard the
// plan is noop or `run`, and the re-probe after apply requires the guard satisfied (the command must
// create the path, remove it, or make the check pass). Without one the plan is always `run` and the
// step does not converge (converges: false).
// `env` values are quoted with the sh tag; a Secret value and `stdin` travel on stdin (command-env.ts),
// never on the command line. `changedWhen({ stdout, stderr, code })` decides after a successful run
// whether it changed anything (false: the report says ok). A non-zero exit fails the step with the
// exit code and the end of stderr. Outputs: the run's { stdout, stderr, code }; code is null when
// the command did not run.
import { unchanged } from '../../runner/core/applied.js';
import { NOOP, type Change } from '../../runner/core/change.js';
import { RemoteError } from '../../runner/core/errors.js';
import { joinScripts, sh, sharesShell, type Script } from '../../runner/core/quote.js';
import { redact, type Secret } from '../../runner/core/secret.js';
import { applyFields, type ExecResult, type Remote, type ShellStep } from '../../runner/core/step.js';
import { z } from 'zod';
import { absolutePath, describeValue, readOptions } from '../../runner/core/step-options.js';
import { commandEnv, commandStdin, type EnvValue, exportPlain, readSecrets, stdinOf } from './command-env.js';
import { ProbeLines } from './probe-lines.js';

const noNul = (v: string) => !v.includes('\0');

const argv = z
  .array(z.string().refine(noNul, { error: 'must not contain a NUL byte' }))
  .min(1, { error: 'must have at least the program name' })
  .refine((a) => typeof a[0] !== 'string' || (a[0] !== '' && !a[0].startsWith('-')), {
    error: 'must be a program name (not empty, not starting with -)',
    path: [0],
  })
  .readonly();

const shellCode = z
  .string()
  .refine((c) => c.trim() !== '', { error: 'must not be empty' })
  .refine(noNul, { error: 'must not contain a NUL byte' });

const Options = z
  .strictObject({
    /** An argv array (run directly, each element one word) or shell code (run by /bin/sh -c). */
    command: z.union([shellCode, argv], {
      error: (iss) => `must be an argv array of strings or a shell string, got ${describeValue(iss.input)}`,
    }),
    /** Absolute path whose existence means the command has already run. */
    creates: absolutePath().optional(),
    /** Absolute path that must exist for the command to run (the command removes it). */
    removes: absolutePath().optional(),
    /** Shell code whose exit 0 means nothing to do (read-only: it runs in every plan). */
    unless: z
      .string()
      .refine((u) => u.trim() !== '' && noNul(u), { error: 'must be shell code (not empty, no NUL byte)' })
      .optional(),
    /** Absolute path of the working directory. */
    chdir: absolutePath().optional(),
    /** Environment variables; a Secret value travels on stdin, never on the command line. */
    env: commandEnv().default(Object.freeze({})),
    /** The command's standard input. */
    stdin: commandStdin().optional(),
    /** Decides, after a successful run, whether it changed anything (false: reported ok). */
    changedWhen: z
      .custom<(result: CommandOutputs) => boolean>((v) => typeof v === 'function', {
        error: (iss) =>
          `must be a function of { stdout, stderr, code } returning true or false, got ${typeof iss.input}`,
      })
      .optional(),
  })
  .transform(({ command, changedWhen, ...rest }) => ({
    desired: {
      argv: typeof command === 'string' ? null : command,
      shell: typeof command === 'string' ? command : null,
      ...rest,
    } satisfies CommandDesired,
    changedWhen,
  }));

export type CommandOptions = z.input<typeof Options>;

export interface CommandDesired {
  /** Exactly one of argv and shell is set. */
  readonly argv: readonly string[] | null;
  readonly shell: string | null;
  readonly creates?: string;
  readonly removes?: string;
  readonly unless?: string;
  readonly chdir?: string;
  readonly env: Readonly<Record<string, EnvValue>>;
  readonly stdin?: string | Secret;
}

export interface CommandActual {
  /** null or absent: not asked (no such guard). */
  readonly createsExists: boolean | null;
  readonly removesExists?: boolean | null;
  readonly unlessCode?: number | null;
}

export interface CommandOutputs {
  stdout: string;
  stderr: string;
  code: number | null;
}

const KIND = 'linux.command';
const STDERR_TAIL = 2000;

/** What the plan shows: argv as the shell would see it, or the shell code itself. */
function display(d: Readonly<CommandDesired>): string {
  return d.argv ? sh`${d.argv}`.text : d.shell!;
}

/** Nothing to do when creates exists, removes does not, or unless exited 0; else `run`. */
export function diffCommand(d: Readonly<CommandDesired>, a: CommandActual | null): Change {
  if (d.creates !== undefined && a?.createsExists) return NOOP;
  if (d.removes !== undefined && a?.removesExists === false) return NOOP;
  if (d.unless !== undefined && a?.unlessCode === 0) return NOOP;
  return { action: 'run', fields: ['command'], before: null, after: { command: display(d) } };
}

const hasGuard = (d: Readonly<CommandDesired>) =>
  d.creates !== undefined || d.removes !== undefined || d.unless !== undefined;

/**
 * The probe prints one record per guard, in this order: `creates present|absent`, `removes
 * present|absent`, `unless <exit code>`; nothing without guards. unless runs in chdir with the
 * plain env values, its output discarded.
 */
function guardScript(d: Readonly<CommandDesired>): Script {
  const exists = (name: string, path: string) =>
    sh`if [ -e ${path} ]; then echo ${`${name} present`}; else echo ${`${name} absent`}; fi`;
  const parts: Script[] = [];
  if (d.creates !== undefined) parts.push(exists('creates', d.creates));
  if (d.removes !== undefined) parts.push(exists('removes', d.removes));
  if (d.unless !== undefined) {
    const setup = joinScripts('sh', [
      ...(d.chdir === undefined ? [] : [sh`cd ${d.chdir} || exit`]),
      ...exportPlain(d.env),
    ]);
    parts.push(sh`(
${setup}
exec /bin/sh -c ${d.unless}
) >/dev/null 2>&1 </dev/null
echo "unless $?"`);
  }
  // `unless` runs in a subshell of its own, so the guard as a whole may share the batch's shell.
  return sharesShell(parts.length ? joinScripts('sh', parts) : sh`:`);
}

export function parseGuards(title: string, d: Readonly<CommandDesired>, result: ExecResult): CommandActual | null {
  const lines = new ProbeLines(title, result);
  const presence = (name: string): boolean => {
    const state = lines.record(name);
    if (state !== 'present' && state !== 'absent') lines.fail(`unknown state ${JSON.stringify(state)}`);
    return state === 'present';
  };
  const createsExists = d.creates === undefined ? null : presence('creates');
  const removesExists = d.removes === undefined ? null : presence('removes');
  let unlessCode: number | null = null;
  if (d.unless !== undefined) {
    const code = lines.record('unless');
    if (!/^\d+$/.test(code)) lines.fail(`unless: not an exit code: ${JSON.stringify(code)}`);
    unlessCode = Number(code);
  }
  lines.end();
  return hasGuard(d) ? { createsExists, removesExists, unlessCode } : null;
}

function tail(text: string): string {
  const t = redact(text).trimEnd();
  return t.length > STDERR_TAIL ? `…${t.slice(-STDERR_TAIL)}` : t;
}

/** cd, the environment (secrets read from stdin first), then the command, which replaces the shell. */
function runScript(d: Readonly<CommandDesired>): Script {
  // `exec` replaces our shell, so argv[0] is never taken as a shell keyword or builtin; without
  // `stdin` the command reads /dev/null, so one waiting for input fails instead of hanging.
  const input = d.stdin === undefined ? sh` < /dev/null` : sh``;
  const program = d.argv ? sh`exec ${d.argv}${input}` : sh`exec /bin/sh -c ${d.shell!}${input}`;
  return joinScripts('sh', [
    ...(d.chdir === undefined ? [] : [sh`cd ${d.chdir} || exit`]),
    ...exportPlain(d.env),
    readSecrets(d.env),
    program,
  ]);
}

function failure(title: string, result: ExecResult): RemoteError {
  const err = tail(result.stderr);
  const how =
    result.code === null
      ? 'was killed by a signal'
      : result.code === 125
        ? 'could not read its secret env values from stdin (exit 125)'
        : `exited ${result.code}`;
  return new RemoteError(`${title} ${how}${err ? `: ${err}` : ''}`, result.code, err);
}

export function command(options: CommandOptions): ShellStep<CommandDesired, CommandActual, CommandOutputs> {
  const read = readOptions(KIND, Options, options);
  const desired: CommandDesired = Object.freeze(read.desired);
  const { changedWhen } = read;
  const shown = display(desired);
  const title = `command ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: hasGuard(desired),
    probe: () => ({ script: guardScript(desired), parse: (result: ExecResult) => parseGuards(title, desired, result) }),
    diff: diffCommand,
    // Its state is readable as soon as its apply script exits: the re-probe rides in the same round trip.
    applyThenProbe: true,
    async apply(
      remote: Remote,
      change: Change,
      _actual: CommandActual | null,
      d: Readonly<CommandDesired>,
    ): Promise<CommandOutputs> {
      let outputs: CommandOutputs = { stdout: '', stderr: '', code: null };
      let changed = true;
      await applyFields(change, ['command'], {
        command: async () => {
          const stdin = stdinOf(d.env, d.stdin);
          const result = await remote.run(runScript(d), stdin === undefined ? undefined : { stdin });
          if (result.code !== 0) throw failure(title, result);
          outputs = { stdout: result.stdout, stderr: result.stderr, code: result.code };
          if (changedWhen) {
            const verdict = changedWhen(outputs);
            if (typeof verdict !== 'boolean')
              throw new TypeError(`${KIND}: changedWhen must return true or false, got ${typeof verdict}`);
            changed = verdict;
          }
        },
      });
      return changed ? outputs : unchanged(outputs);
    },
    outputs: (): CommandOutputs => ({ stdout: '', stderr: '', code: null }),
  });
}
