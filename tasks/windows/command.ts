// command({ exe, args?, creates? | removes? | unless?, chdir?, changedWhen? }): runs a program on a
// Windows host, like ansible.windows.win_command: no shell, no PowerShell parsing of the arguments.
//  - exe: a full path (C:\k\tool.exe) or a program name found on the host's PATH (w32tm.exe).
//  - args: each one argument as the program will see it in argv. Windows hands a program one command
//    line that it splits itself (CommandLineToArgvW, the C runtime's rules); the line is built from
//    the list by those rules (quoteWindowsArg in remote/ps-native.ts: a space, tab or quote wraps the
//    argument in quotes, a quote is escaped with a backslash, backslashes are doubled only before a
//    quote), so `a "b" c\` arrives as that one string. A Secret is refused: a command line is visible
//    to every process on the host (Win32_Process.CommandLine, Task Manager).
//  - creates/removes/unless and changedWhen as windows.powershell (run-guards.ts); without a guard
//    the plan is always `run` and the step does not converge.
// A non-zero exit code fails the step with the end of its output. Outputs: { stdout, stderr, code }.
import type { Change } from '../../runner/core/change.js';
import { unchanged } from '../../runner/core/applied.js';
import { RemoteError } from '../../runner/core/errors.js';
import { z } from 'zod';
import { nonEmpty, readOptions } from '../../runner/core/step-options.js';
import { isSecret, redact } from '../../runner/core/secret.js';
import { applyFields, type Remote, type Step } from '../../runner/core/step.js';
import { checked, type Refuse } from './options/checked.js';
import { normalizeWindowsPath, windowsPath } from './options/win-options.js';
import { invokeFunction } from './remote/open-function.js';
import { INVOKE_PROGRAM } from './remote/ps-escape.js';
import { quoteWindowsArg, windowsCommandLine } from './remote/ps-native.js';
import {
  changedWhenOption,
  diffGuarded,
  type GuardsActual,
  type GuardsDesired,
  guardOptions,
  guardsProbe,
  hasGuard,
  judgeChanged,
} from './run-guards.js';

export interface WinCommandResult {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

export interface WinCommandDesired extends GuardsDesired {
  readonly exe: string;
  readonly args: readonly string[];
  readonly chdir?: string;
}

export interface WinCommandOutputs {
  stdout: string;
  stderr: string;
  /** null when the command did not run. */
  code: number | null;
}

const KIND = 'windows.command';
/** CreateProcess's limit on a command line, in characters (UTF-16 units), the program's own name included. */
const MAX_COMMAND_LINE = 32767;
const TAIL = 2000;

/** The command line as Windows will pass it (the program's name quoted by the same rules). */
export function commandLineOf(d: Pick<WinCommandDesired, 'exe' | 'args'>): string {
  return [quoteWindowsArg(d.exe), windowsCommandLine(d.args)].filter(Boolean).join(' ');
}

/** A full path (C:\\k\\tool.exe) or a program name found on the host's PATH (w32tm.exe). */
const exe = () =>
  checked(nonEmpty(), (v: string, refuse: Refuse) => {
    if (/[\\/:]/.test(v)) return normalizeWindowsPath(v, refuse);
    if (!/^[A-Za-z0-9_.-]+$/.test(v))
      refuse(`must be a full path (C:\\k\\tool.exe) or a program name such as w32tm.exe, got ${JSON.stringify(v)}`);
    return v;
  });

/** One argument as the program sees it; never a secret (a command line is visible to every process on the host). */
const arg = () =>
  checked(
    z.custom<string>(() => true),
    (a: unknown, refuse: Refuse): string => {
      if (isSecret(a))
        refuse(
          'is a secret: a command line is visible to every process on the host; write it to a file with fileContent and pass the path',
        );
      if (typeof a !== 'string') refuse(`must be a string, got ${a === null ? 'null' : typeof a}`);
      if (a.includes('\0')) refuse('must not contain a NUL byte');
      return a;
    },
  );

const Options = checked(
  z.strictObject({
    exe: exe(),
    args: z
      .array(arg(), {
        error: (iss) =>
          `must be a list of strings (one per argument), got ${iss.input === null ? 'null' : typeof iss.input}`,
      })
      .optional(),
    chdir: windowsPath().optional(),
    ...guardOptions(),
    changedWhen: changedWhenOption<WinCommandResult>(),
  }),
  ({ changedWhen, ...o }, refuse: Refuse) => {
    const desired: WinCommandDesired = Object.freeze({ ...o, args: Object.freeze(o.args ?? []) });
    const line = commandLineOf(desired);
    if (line.length >= MAX_COMMAND_LINE)
      refuse(`make a command line of ${line.length} characters; Windows allows ${MAX_COMMAND_LINE - 1}`, 'args');
    return { desired, changedWhen };
  },
);

export type WinCommandOptions = z.input<typeof Options>;

function failure(title: string, r: WinCommandResult): RemoteError {
  const text = redact((r.stderr || r.stdout).trimEnd());
  const tail = text.length > TAIL ? `…${text.slice(-TAIL)}` : text;
  return new RemoteError(`${title} exited ${r.code}${tail ? `: ${tail}` : ''}`, r.code, tail);
}

export function command(options: WinCommandOptions): Step<WinCommandDesired, GuardsActual, WinCommandOutputs> {
  const { desired, changedWhen } = readOptions(KIND, Options, options);
  const line = commandLineOf(desired);
  const title = `command ${line.length > 60 ? `${line.slice(0, 60)}…` : line}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: hasGuard(desired),
    probe: () => guardsProbe(desired, null),
    diff: (d: Readonly<WinCommandDesired>, a: GuardsActual | null) => diffGuarded(d, a, 'command', commandLineOf(d)),
    async apply(
      remote: Remote,
      change: Change,
      _actual: GuardsActual | null,
      d: WinCommandDesired,
    ): Promise<WinCommandOutputs> {
      let outputs: WinCommandOutputs = { stdout: '', stderr: '', code: null };
      let changed = true;
      await applyFields(change, ['command'], {
        command: async () => {
          const res = await invokeFunction(
            remote,
            INVOKE_PROGRAM,
            { exe: d.exe, argv: [...d.args], chdir: d.chdir ?? null },
            title,
          );
          if (res.code !== 0) throw failure(title, res);
          outputs = res;
          changed = judgeChanged(KIND, changedWhen, res, true);
        },
      });
      return changed ? outputs : unchanged(outputs);
    },
    outputs: (): WinCommandOutputs => ({ stdout: '', stderr: '', code: null }),
  });
}
