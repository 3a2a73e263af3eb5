// command({ command, creates?, chdir? }): runs a command, at most once when guarded by `creates`.
//  - `command` as an argv array: run directly (exec), each element one word, so values in it are
//    data. argv[0] is looked up in PATH and must not start with '-'.
//  - `command` as a string: shell code run by `/bin/sh -c`. It is code written by the playbook
//    author, not data: never build it from inventory values (use the argv form for those).
// With `creates` (an absolute path): the plan is noop when the path exists, else `run`, and after
// apply the runner's re-probe requires the path to exist (the command must create it). Without
// `creates` the plan is always `run` and the step does not converge (converges: false).
// A non-zero exit fails the step with the exit code and the end of stderr. Outputs: the run's
// { stdout, stderr, code }; code is null when the command did not run.
import { NOOP, type Change } from '../../runner/core/change.js';
import { RemoteError } from '../../runner/core/errors.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import { sh, type Script } from '../../runner/core/quote.js';
import { redact } from '../../runner/core/secret.js';
import { applyFields, type ExecResult, type Remote, type Step } from '../../runner/core/step.js';
import { ProbeLines } from './probe-lines.js';

export type CommandOptions = {
  command: string | readonly string[];
  /** Absolute path whose existence means the command has already run. */
  creates?: string;
  /** Absolute path of the working directory. */
  chdir?: string;
};

export interface CommandDesired {
  /** Exactly one of argv and shell is set. */
  readonly argv: readonly string[] | null;
  readonly shell: string | null;
  readonly creates?: string;
  readonly chdir?: string;
}

export interface CommandActual {
  readonly createsExists: boolean;
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

function diffCommand(d: Readonly<CommandDesired>, a: CommandActual | null): Change {
  if (d.creates !== undefined && a?.createsExists) return NOOP;
  return { action: 'run', fields: ['command'], before: null, after: { command: display(d) } };
}

function readCommand(r: OptionReader): Pick<CommandDesired, 'argv' | 'shell'> {
  const c = r.opts.command;
  if (typeof c === 'string') {
    if (c.trim() === '') r.fail('command', 'must not be empty');
    if (c.includes('\0')) r.fail('command', 'must not contain a NUL byte');
    return { argv: null, shell: c };
  }
  if (!Array.isArray(c))
    r.fail(
      'command',
      `must be an argv array of strings or a shell string, got ${c === undefined ? 'nothing' : c === null ? 'null' : typeof c}`,
    );
  if (c.length === 0) r.fail('command', 'must have at least the program name');
  c.forEach((v, i) => {
    if (typeof v !== 'string') r.fail(`command[${i}]`, `must be a string, got ${v === null ? 'null' : typeof v}`);
    if (v.includes('\0')) r.fail(`command[${i}]`, 'must not contain a NUL byte');
  });
  if (c[0] === '' || c[0].startsWith('-'))
    r.fail('command[0]', 'must be a program name (not empty, not starting with -)');
  return { argv: Object.freeze([...(c as string[])]), shell: null };
}

function tail(text: string): string {
  const t = redact(text).trimEnd();
  return t.length > STDERR_TAIL ? `…${t.slice(-STDERR_TAIL)}` : t;
}

export function command(options: CommandOptions): Step<CommandDesired, CommandActual, CommandOutputs> {
  const r = new OptionReader(KIND, options as Options);
  r.only(['command', 'creates', 'chdir']);
  const desired: CommandDesired = Object.freeze({
    ...readCommand(r),
    creates: r.absolutePath('creates', 'optional'),
    chdir: r.absolutePath('chdir', 'optional'),
  });
  const shown = display(desired);
  const title = `command ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}`;
  const { creates, chdir } = desired;

  // `exec` replaces our shell, so argv[0] is never taken as a shell keyword or builtin; stdin is
  // /dev/null so that a command waiting for input fails instead of hanging until the timeout.
  const program = desired.argv
    ? sh`exec ${desired.argv} < /dev/null`
    : sh`exec /bin/sh -c ${desired.shell!} < /dev/null`;
  const script: Script =
    chdir === undefined
      ? program
      : sh`cd ${chdir} || exit
${program}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: creates !== undefined,
    probe: () => ({
      // Output: `creates present` or `creates absent`; nothing without `creates`.
      script:
        creates === undefined
          ? sh`:`
          : sh`if [ -e ${creates} ]; then echo 'creates present'; else echo 'creates absent'; fi`,
      parse: (result: ExecResult): CommandActual | null => {
        const lines = new ProbeLines(title, result);
        if (creates === undefined) {
          lines.end();
          return null;
        }
        const state = lines.record('creates');
        if (state !== 'present' && state !== 'absent') lines.fail(`unknown state ${JSON.stringify(state)}`);
        lines.end();
        return { createsExists: state === 'present' };
      },
    }),
    diff: diffCommand,
    async apply(remote: Remote, change: Change): Promise<CommandOutputs> {
      let outputs: CommandOutputs = { stdout: '', stderr: '', code: null };
      await applyFields(change, ['command'], {
        command: async () => {
          const result = await remote.run(script);
          if (result.code !== 0) {
            const err = tail(result.stderr);
            const how = result.code === null ? 'was killed by a signal' : `exited ${result.code}`;
            throw new RemoteError(`${title} ${how}${err ? `: ${err}` : ''}`, result.code, err);
          }
          outputs = { stdout: result.stdout, stderr: result.stderr, code: result.code };
        },
      });
      return outputs;
    },
    outputs: (): CommandOutputs => ({ stdout: '', stderr: '', code: null }),
  });
}
