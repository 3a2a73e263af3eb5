// The `play` command line. Exit codes (README): 0 ok, 2 check found changes, 3 a host failed,
// 4 a host was unreachable, 64 usage error, 65 invalid inventory or playbook, 70 internal error,
// 130 interrupted.
import { basename } from 'node:path';
import { config as loadDotenv } from 'dotenv';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { PlayError, UsageError } from '../core/errors.js';
import { selectHosts } from '../inventory/pattern.js';
import { compileGraph } from '../playbook/compile.js';
import { nodeGraphText, taskGraphText } from '../playbook/graph-text.js';
import { listPlaybookFiles, loadPlaybook, resolvePlaybook } from '../playbook/load.js';
import { openInventory } from './open-inventory.js';
import { labCommand } from './lab-command.js';
import { runCommand } from './run-command.js';

const DEFAULT_FORKS = 20;

export async function main(argv: string[], out: NodeJS.WritableStream & NodeJS.WriteStream = process.stdout, err = process.stderr): Promise<number> {
  loadDotenv({ quiet: true });
  let code = 0;
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts === 1) {
      err.write('\ninterrupted: starting nothing new, waiting for running steps (Ctrl-C again to quit now)\n');
      controller.abort();
    } else process.exit(130);
  };

  const parser = yargs(argv)
    .scriptName('play')
    .usage('$0 PLAYBOOK [options]  |  $0 <command>')
    .option('inventory', { alias: 'i', type: 'string', describe: 'inventory file (default: $PLAY_INVENTORY, else the lab\'s)' })
    .command('hosts <pattern>', 'print the hosts a pattern matches, one per line, in inventory order', (y) =>
      y.positional('pattern', { type: 'string', demandOption: true }), (a) => {
      const inv = openInventory(a.inventory, err);
      for (const h of selectHosts(inv, a.pattern)) out.write(h.name + '\n');
    })
    .command('list', 'list the playbooks with their descriptions', () => {}, async () => {
      for (const f of listPlaybookFiles()) {
        const pb = await loadPlaybook(f);
        out.write(`${basename(f).replace(/\.[^.]+$/, '').padEnd(20)} ${pb.description}\n`);
      }
    })
    .command('graph <playbook>', 'show the task graph (with -i or a lab: the host-level order too)', (y) =>
      y.positional('playbook', { type: 'string', demandOption: true }).option('limit', { alias: 'l', type: 'string' }), async (a) => {
      const pb = await loadPlaybook(resolvePlaybook(a.playbook));
      out.write(taskGraphText(pb));
      let inv;
      try { inv = openInventory(a.inventory, err); } catch (e) { if (a.inventory) throw e; }
      if (inv) out.write('\n' + nodeGraphText(compileGraph(pb, inv, { limit: a.limit })));
    })
    .command('lab <action>', 'the built-in lab of Linux hosts (and simulated Windows nodes) in network namespaces (root)', (y) =>
      y.positional('action', { choices: ['up', 'down', 'status', 'inventory'] as const, demandOption: true })
        .option('linux', { type: 'number', describe: 'number of plain Linux hosts (up)' })
        .option('tor', { type: 'number', describe: 'number of ToR gateway hosts (up)' })
        .option('windows', { type: 'number', describe: 'number of simulated Windows nodes node009.. (up; a test double)' })
        .option('control', { type: 'number', describe: 'the cluster control host control1 with a kubectl stand-in, 0 or 1 (up; a test double)' }), async (a) => {
      code = await labCommand(a.action, { linux: a.linux, tor: a.tor, windows: a.windows, control: a.control }, out);
    })
    .command('$0 <playbook>', 'run a playbook', (y) => y
      .positional('playbook', { type: 'string', demandOption: true, describe: 'a name from `play list`, or a path' })
      .option('limit', { alias: 'l', type: 'string', describe: 'host pattern (Ansible grammar) narrowing the targets' })
      .option('check', { alias: 'C', type: 'boolean', default: false, describe: 'plan only: report what would change, change nothing' })
      .option('diff', { alias: 'D', type: 'boolean', default: false, describe: 'show before/after values and text diffs' })
      .option('forks', { alias: 'f', type: 'number', default: DEFAULT_FORKS, describe: 'hosts worked on at once' })
      .option('timeout', { type: 'number', default: 300, describe: 'per-step time limit, seconds' })
      .option('report', { type: 'string', describe: 'write the JSON report to this file' })
      .option('json', { type: 'boolean', default: false, describe: 'print the JSON report on stdout (progress goes to stderr)' })
      .option('extra-vars', { alias: 'e', type: 'string', array: true, default: [] as string[], describe: 'key=value or JSON; overrides inventory vars' })
      .option('accept-new', { type: 'boolean', default: false, describe: 'record unknown host keys (a changed key is always refused)' })
      .option('known-hosts', { type: 'string', describe: 'known_hosts file for every host (overrides the inventory; default ~/.ssh/known_hosts)' })
      .option('live', { type: 'boolean', default: true, describe: 'live view on a terminal (--no-live: one line per host)' }), async (a) => {
      if (!Number.isInteger(a.forks) || a.forks < 1) throw new UsageError(`--forks must be a positive integer, got ${a.forks}`);
      if (!(a.timeout > 0)) throw new UsageError(`--timeout must be a positive number of seconds, got ${a.timeout}`);
      const result = await runCommand({
        playbook: a.playbook, inventory: a.inventory, limit: a.limit, check: a.check, diff: a.diff,
        forks: a.forks, timeout: a.timeout, report: a.report, json: a.json, extraVars: a.extraVars.map(String),
        acceptNew: a.acceptNew, knownHosts: a.knownHosts, live: a.live ? 'auto' : 'never',
      }, out, err, controller.signal);
      code = result.code;
    })
    .strict()
    .help()
    .version(false)
    .exitProcess(false)
    .fail((msg, e) => { throw e ?? new UsageError(msg); });

  // Registered before anything runs: a Ctrl-C during loading also ends in exit 130, not a crash.
  process.on('SIGINT', onSigint);
  try {
    await parser.parseAsync();
    return controller.signal.aborted && code === 0 ? 130 : code;
  } catch (e) {
    if (e instanceof PlayError) {
      err.write(`play: ${e.message}\n`);
      return e.exitCode;
    }
    err.write(`play: internal error: ${(e as Error).stack ?? e}\n`);
    return 70;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

export async function cli(): Promise<void> {
  // `play hosts all | head` closes our stdout early: that is the reader's choice, not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => { if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0); else throw e; });
  process.exitCode = await main(hideBin(process.argv));
}
