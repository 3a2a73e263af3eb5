// The `play` command line. Exit codes (README): 0 ok, 2 check found changes (drift: drift found),
// 3 a host failed, 4 a host was unreachable, 64 usage error, 65 invalid inventory or playbook,
// 70 internal error, 130 interrupted.
// Start-up cost matters (`play --help`, `play hosts`): only yargs and the errors are imported here;
// each command imports what it needs when it runs (the lab and esbuild only for `play lab`, SSH and
// the renderers only for a run).
import { config as loadDotenv } from 'dotenv';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { PlayError, UsageError } from '../core/errors.js';
import { CompletionAnswered, completionCommands } from './completion.js';
import { configCommands } from './config-command.js';
import { driftCommands } from './drift-cli.js';
import { EXAMPLES, mainEpilogue } from './help-text.js';
import { initCommands } from './init-cli.js';
import { inspectCommands } from './inspect-cli.js';
import type { Io } from './io.js';
import { labCommands } from './lab-cli.js';
import { rolloutCommands } from './rollouts-cli.js';
import { runCommandLine } from './run-cli.js';
import { stateCommands } from './state-cli.js';

export async function main(
  argv: string[],
  out: NodeJS.WriteStream = process.stdout,
  err: NodeJS.WriteStream = process.stderr,
): Promise<number> {
  loadDotenv({ quiet: true });
  if (isVersionRequest(argv)) {
    const { versionText } = await import('./version.js');
    out.write(versionText(argv));
    return 0;
  }
  const controller = new AbortController();
  const io: Io = { out, err, signal: controller.signal, code: 0 };
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      err.write('\ninterrupted: starting nothing new, waiting for running steps (Ctrl-C again to quit now)\n');
      controller.abort();
    } else process.exit(130);
  };

  const parser = runCommandLine(
    stateCommands(
      rolloutCommands(
        driftCommands(labCommands(initCommands(configCommands(inspectCommands(yargs(argv), io), io), io), io), io),
        io,
      ),
      io,
    ),
    io,
  )
    .scriptName('play')
    .usage('$0 PLAYBOOK [options]  |  $0 <command>')
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    // yargs' own complaints (unknown option, missing argument, bad choice) become one line, exit 64.
    // A `coerce` that throws reaches here as yargs' YError carrying its message.
    .fail((msg, e) => {
      if (e instanceof PlayError) throw e;
      if (!e || e.name === 'YError') throw new UsageError(usageMessage(e?.message ?? msg, argv));
      throw e;
    });

  // `play completion`, and --help's examples, exit codes and environment (help-text.ts).
  completionCommands(parser, io, argv)
    .example(EXAMPLES.map(([c, d]) => [c, d]))
    .epilogue(mainEpilogue());

  // Registered before anything runs: a Ctrl-C during loading also ends in exit 130, not a crash.
  process.on('SIGINT', onSigint);
  try {
    await parser.parseAsync();
    return controller.signal.aborted && io.code === 0 && !io.cleanStop ? 130 : io.code;
  } catch (e) {
    if (e instanceof CompletionAnswered) return 0;
    return reportError(e, err);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** A user's mistake is one line and its exit code; anything else is a bug in play: 70, with the trace. */
export function reportError(e: unknown, err: NodeJS.WritableStream): number {
  if (e instanceof PlayError) {
    err.write(`play: ${e.message}\n`);
    return e.exitCode;
  }
  err.write(
    `play: internal error (a bug in play; please report it with this trace; PLAY_SOURCE_MAPS=1 gives its TypeScript positions): ${(e instanceof Error && e.stack) || String(e)}\n`,
  );
  return 70;
}

const COMMANDS = [
  'hosts',
  'inventory',
  'list',
  'graph',
  'init',
  'lab',
  'drift',
  'rollouts',
  'resume',
  'state',
  'config',
  'completion',
];

/** `--version` anywhere before a `--`: answered before yargs parses, which wants a playbook (version.ts). */
function isVersionRequest(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--version');
}

/** yargs' messages, which can span lines and name no command, as one line with a pointer to --help. */
export function usageMessage(msg: string | undefined, argv: readonly string[]): string {
  const command = COMMANDS.includes(argv[0] ?? '') ? argv[0]! : undefined;
  const help = `see 'play ${command ? `${command} ` : ''}--help'`;
  const text = (msg ?? 'invalid command line').trim();
  const choice = /Argument: (\S+), Given: (.+), Choices: (.+)$/m.exec(text);
  if (choice) return `${command ? `${command}: ` : ''}${choice[1]} ${choice[2]} is not one of ${choice[3]} (${help})`;
  const unknown = /^Unknown arguments?: (.+)$/.exec(text);
  if (unknown) {
    const names = unknown[1]!
      .split(', ')
      .map((n) => argv.find((w) => w === `--${n}` || w.startsWith(`--${n}=`) || w === `-${n}`)?.split('=')[0] ?? n);
    return `unknown option${names.length > 1 ? 's' : ''} or argument${names.length > 1 ? 's' : ''}: ${names.join(', ')} (${help})`;
  }
  if (/^Not enough non-option arguments/.test(text)) {
    const what =
      command === 'hosts'
        ? 'a host pattern'
        : command === 'graph'
          ? 'a playbook'
          : command === 'lab'
            ? 'an action: up, down, status or inventory'
            : 'a playbook (or a command)';
    return `${command ? `${command}: ` : ''}missing ${what} (${help})`;
  }
  return `${text.replace(/\s*\n\s*/g, '; ')} (${help})`;
}

export async function cli(): Promise<void> {
  // `play hosts all | head` closes our stdout early: that is the reader's choice, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    else throw e;
  });
  process.exitCode = await main(hideBin(process.argv));
}
