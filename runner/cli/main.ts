// The `play` command line. Exit codes (README): 0 ok, 2 check found changes (drift: drift found),
// 3 a host failed, 4 a host was unreachable, 64 usage error, 65 invalid inventory or playbook,
// 70 internal error, 130 interrupted.
// Start-up cost matters (`play --help`, `play hosts`): only yargs and the errors are imported here;
// each command imports what it needs when it runs (the lab and esbuild only for `play lab`, SSH and
// the renderers only for a run).
import { config as loadDotenv } from 'dotenv';
import yargs, { type Argv } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { PlayError, UsageError } from '../core/errors.js';
import { count, positiveInteger } from './coerce.js';
import { CompletionAnswered, completionCommands } from './completion.js';
import { configCommands } from './config-command.js';
import { CONNECTION_GROUP, CONNECTION_OPTIONS } from './connection-flags.js';
import { driftCommands } from './drift-cli.js';
import { EXAMPLES, mainEpilogue } from './help-text.js';
import type { Io } from './io.js';
import { OUTPUT_OPTIONS, outputArgsOf } from './output-options.js';
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
    `play: internal error (a bug in play; please report it with this trace): ${(e instanceof Error && e.stack) || String(e)}\n`,
  );
  return 70;
}

/** `play hosts`, `play inventory`, `play list`, `play graph`: read-only looks at inventories and playbooks.
 *  Long because it is declarative: yargs' table of the four commands, one entry each. The global options
 *  -i and the vault's are repeatable (a repeated string option is an array), not `array: true`, which
 *  would take the playbook after them as one more value. */
function inspectCommands(y: Argv, io: Io) {
  return y
    .option('inventory', {
      alias: 'i',
      type: 'string',
      describe:
        "inventory file or directory, YAML or INI, or a list of hosts 'h1,h2,'; repeat -i for several (default: $PLAY_INVENTORY, else the lab's)",
    })
    .option('vault-id', {
      type: 'string',
      describe: 'a vault password: [LABEL@]FILE (an executable file: its output) or [LABEL@]prompt; repeat for several',
    })
    .option('vault-password-file', {
      alias: 'vault-pass-file',
      type: 'string',
      describe:
        'a file holding the vault password (an executable file: its output); repeat for several; also $ANSIBLE_VAULT_PASSWORD_FILE',
    })
    .option('ask-vault-pass', {
      alias: ['J', 'ask-vault-password'],
      type: 'boolean',
      describe: 'ask for the vault password on the terminal, without echo',
    })
    .command(
      'inventory',
      'print the inventory as ansible-inventory does: --list, or --host NAME for one host (secrets stay lookups)',
      (c) =>
        c
          .option('list', { type: 'boolean', describe: "every group and host, with each host's variables" })
          .option('host', { type: 'string', describe: "one host's merged variables" }),
      async (a) => {
        const [{ inventoryCommand }, vault] = await Promise.all([import('./inventory-command.js'), vaultOf(a)]);
        inventoryCommand({ inventory: a.inventory, list: a.list, host: a.host, vault }, io.out, io.err);
      },
    )
    .command(
      'hosts <pattern>',
      'print the hosts a pattern matches, one per line, in inventory order',
      (c) => c.positional('pattern', { type: 'string', demandOption: true }),
      async (a) => {
        const [{ openInventory }, { selectHosts }] = await Promise.all([
          import('./open-inventory.js'),
          import('../inventory/pattern.js'),
        ]);
        const inv = openInventory(a.inventory, io.err, await vaultOf(a));
        io.out.write(
          selectHosts(inv, a.pattern)
            .map((h) => h.name + '\n')
            .join(''),
        );
      },
    )
    .command(
      'list',
      'list the playbooks with their descriptions',
      () => {},
      async () => {
        const { listPlaybookFiles, loadPlaybook, playbookName } = await import('../playbook/load.js');
        // One playbook that does not load is named, and the others are still listed.
        for (const f of listPlaybookFiles()) {
          try {
            const pb = await loadPlaybook(f);
            io.out.write(`${playbookName(f).padEnd(20)} ${pb.description}\n`);
          } catch (e) {
            if (!(e instanceof PlayError)) throw e;
            io.err.write(`play: ${e.message}\n`);
            io.code ||= e.exitCode;
          }
        }
      },
    )
    .command(
      'graph <playbook>',
      'show the task graph (with -i or a lab: the host-level order too)',
      (c) =>
        c
          .positional('playbook', { type: 'string', demandOption: true })
          .option('limit', { alias: 'l', type: 'string' }),
      async (a) => {
        const [
          { loadPlaybook, resolvePlaybook },
          { nodeGraphText, taskGraphText },
          { compileGraph },
          { openInventory },
        ] = await Promise.all([
          import('../playbook/load.js'),
          import('../playbook/graph-text.js'),
          import('../playbook/compile.js'),
          import('./open-inventory.js'),
        ]);
        const pb = await loadPlaybook(resolvePlaybook(a.playbook));
        io.out.write(taskGraphText(pb));
        let inv: Awaited<ReturnType<typeof openInventory>> | undefined;
        try {
          inv = openInventory(a.inventory, io.err, await vaultOf(a));
        } catch (e) {
          if (a.inventory) throw e;
        }
        if (inv) io.out.write('\n' + nodeGraphText(compileGraph(pb, inv, { limit: a.limit })));
      },
    );
}

/** The vault passwords the command line (and ANSIBLE_VAULT_PASSWORD_FILE) gives, read once. */
async function vaultOf(a: object) {
  const { openVault, vaultFlagsOf } = await import('../vault/passwords.js');
  return openVault(vaultFlagsOf(a));
}

/** `play init [DIR]`: a repository of one's own playbooks (init-command.ts). */
function initCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'init [dir]',
    'start a repository of your own playbooks in DIR (default: here): package.json, tsconfig, inventory, a playbook, its test',
    (c) =>
      c
        .positional('dir', { type: 'string', describe: 'the folder to write into (created if missing)' })
        .option('play', {
          type: 'string',
          describe: "play's package spec in package.json: a git URL, a tarball or a path (default: this play's folder)",
        }),
    async (a) => {
      const { initCommand } = await import('./init-command.js');
      io.code = initCommand({ dir: a.dir, play: a.play }, io.out);
    },
  );
}

function labCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'lab <action>',
    'the built-in lab of Linux hosts (and simulated Windows nodes) in network namespaces (root)',
    (c) =>
      c
        .positional('action', { choices: ['up', 'down', 'status', 'inventory'] as const, demandOption: true })
        // Counts are read as strings so that a mistake is quoted as typed (`--linux abc`), not as NaN.
        .option('linux', { type: 'string', coerce: count('--linux'), describe: 'number of plain Linux hosts (up)' })
        .option('tor', { type: 'string', coerce: count('--tor'), describe: 'number of ToR gateway hosts (up)' })
        .option('windows', {
          type: 'string',
          coerce: count('--windows'),
          describe: 'number of simulated Windows nodes node009.. (up; a test double)',
        })
        .option('control', {
          type: 'string',
          coerce: count('--control'),
          describe:
            'the cluster control host control1: the real kubectl and a Kubernetes API double, 0 or 1 (up; a test double)',
        })
        .option('bastion', {
          type: 'string',
          coerce: count('--bastion'),
          describe: 'number of jump hosts bastion1.. on the lab bridge and the private one (up)',
        })
        .option('behind-bastion', {
          type: 'string',
          coerce: count('--behind-bastion'),
          describe: 'number of hosts private1.. reachable only through bastion1 (up; implies --bastion 1)',
        }),
    async (a) => {
      const { labCommand } = await import('./lab-command.js');
      const counts = {
        linux: a.linux as number | undefined,
        tor: a.tor as number | undefined,
        windows: a.windows as number | undefined,
        control: a.control as number | undefined,
        bastion: a.bastion as number | undefined,
        private: a.behindBastion as number | undefined,
      };
      io.code = await labCommand(a.action, counts, io.out);
    },
  );
}

/** `play rollouts list|show [RUN]|unlock RUN`: the rolling runs' journal; `play resume [RUN]`. */
function rolloutCommands<T>(y: Argv<T>, io: Io) {
  return y
    .command(
      'resume [run]',
      'continue an unfinished rolling run (RUN from play rollouts list; default: the newest unfinished one)',
      (c) =>
        c
          .positional('run', { type: 'string', describe: 'a run number' })
          .option('state', {
            type: 'string',
            describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print the JSON report on stdout' })
          .option('report', { type: 'string', describe: 'write the JSON report to this file' })
          .option('live', { type: 'boolean', default: true, describe: 'live view on a terminal' })
          .option('accept-new', { type: 'boolean', default: false, describe: 'record unknown host keys' })
          .option('known-hosts', { type: 'string', describe: 'known_hosts file for every host' })
          .option('allow-changed', {
            type: 'boolean',
            default: false,
            describe: 'resume even if the playbook or inventory changed since the run started',
          })
          .options(OUTPUT_OPTIONS)
          .options(CONNECTION_OPTIONS)
          .group(Object.keys(CONNECTION_OPTIONS), CONNECTION_GROUP),
      async (a) => {
        const [{ resumeCommand }, { readConnectionFlags }] = await Promise.all([
          import('./resume-command.js'),
          import('./connection-flags.js'),
        ]);
        // Asked before the vault password, as a rolling run asks.
        const connection = await readConnectionFlags(a);
        io.code = await resumeCommand(
          {
            run: a.run,
            state: a.state,
            json: a.json,
            report: a.report,
            live: a.live ? 'auto' : 'never',
            acceptNew: a.acceptNew,
            knownHosts: a.knownHosts,
            allowChanged: a.allowChanged,
            vault: await vaultOf(a),
            connection,
            ...outputArgsOf(a),
          },
          io.out,
          io.err,
          io.signal,
        );
      },
    )
    .command(
      'rollouts <action> [run]',
      'the rolling runs in the state store: list, show [RUN|latest] (its report), unlock RUN, watch (a standby that takes over runs whose controller is gone), quarantined (KBs a rollback quarantined), release-kb KB',
      (c) =>
        c
          .positional('action', {
            choices: ['list', 'show', 'unlock', 'watch', 'quarantined', 'release-kb'] as const,
            demandOption: true,
          })
          .positional('run', { type: 'string', describe: 'a run number, or latest (release-kb: the KB)' })
          .option('state', {
            type: 'string',
            describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
          })
          .option('json', { type: 'boolean', default: false, describe: 'print as JSON' })
          .option('runs', {
            type: 'string',
            default: '20',
            coerce: positiveInteger('--runs'),
            describe: 'list: how many, newest first',
          })
          .option('poll', {
            type: 'string',
            default: '5',
            coerce: positiveInteger('--poll'),
            describe: 'watch: seconds between looks at the store',
          })
          .option('accept-new', { type: 'boolean', default: false, describe: 'watch: record unknown host keys' })
          .option('known-hosts', { type: 'string', describe: 'watch: known_hosts file for every host' }),
      async (a) => {
        if (a.action === 'watch') {
          const { rolloutsWatch } = await import('./rollouts-watch.js');
          io.code = await rolloutsWatch(
            { state: a.state, pollSec: a.poll as unknown as number, acceptNew: a.acceptNew, knownHosts: a.knownHosts },
            io.out,
            io.err,
            io.signal,
          );
          return;
        }
        const { rolloutsCommand } = await import('./rollouts-command.js');
        io.code = await rolloutsCommand(
          { action: a.action, run: a.run, state: a.state, json: a.json, limit: a.runs as unknown as number },
          io.out,
        );
      },
    );
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
