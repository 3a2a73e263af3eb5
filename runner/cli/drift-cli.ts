// The `play drift` command line: `play drift [PLAYBOOK...]` runs a drift check; `play drift history`
// and `play drift show [RUN|latest]` read the state store. Kept apart from main.ts, which composes it.
import type { Argv } from 'yargs';
import { UsageError } from '../core/errors.js';
import { atMostAWeek, optionalPositiveInteger, positiveInteger } from './coerce.js';
import { CONNECTION_GROUP, CONNECTION_OPTIONS } from './connection-flags.js';
import { DRIFT_EXAMPLES, driftEpilogue } from './help-text.js';
import type { Io } from './io.js';
import { OUTPUT_OPTIONS, outputArgsOf } from './output-options.js';

// Long because it is declarative: yargs' table of the drift subcommands and their options, one entry each.
export function driftCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'drift [args..]',
    "report what differs from the playbooks' desired state, changing nothing (history: past runs; show [RUN]: one run)",
    (c) =>
      c
        .positional('args', {
          type: 'string',
          array: true,
          describe: 'playbooks (default: every drift-checked one), or history, or show [RUN|latest]',
        })
        .option('limit', {
          alias: 'l',
          type: 'string',
          describe: 'host pattern (Ansible grammar) narrowing the targets',
        })
        .option('forks', {
          alias: 'f',
          type: 'string',
          coerce: optionalPositiveInteger('--forks'),
          describe: "hosts probed at once (default: ansible.cfg's forks or ANSIBLE_FORKS, else 20)",
        })
        .option('timeout', {
          type: 'string',
          default: '300',
          coerce: atMostAWeek('--timeout', positiveInteger('--timeout')),
          describe: 'per-step time limit, seconds (at most 604800: 7 days)',
        })
        .option('state', {
          type: 'string',
          describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
        })
        .option('keep', { type: 'string', describe: 'history kept: days (90d, the default) or a number of runs' })
        .option('json', { type: 'boolean', default: false, describe: 'print the run (or history) as JSON' })
        .option('every', {
          type: 'string',
          describe: "run until stopped: a cron schedule ('0 * * * *') or an interval (15m, at most 365d)",
        })
        .option('missed', {
          type: 'string',
          choices: ['skip', 'once'],
          default: 'skip',
          describe: 'with --every: ticks that fell while a run was going: skip them (logged), or run once at once',
        })
        .option('schedule-id', {
          type: 'string',
          describe:
            'with --every: name of the schedule shared by the controllers on one state store (default: from the playbooks, limit, schedule and inventory)',
        })
        .option('jitter', {
          type: 'string',
          describe: 'with --every: delay each run by up to this long (30s, 5m; at most the interval)',
        })
        .option('notify', { type: 'string', describe: 'POST a JSON message here when a run has new or resolved items' })
        .option('junit', { type: 'string', describe: 'write a JUnit XML report (a failure per drift item)' })
        .option('html', { type: 'string', describe: 'write a self-contained HTML report' })
        .option('markdown', { type: 'string', describe: 'write a Markdown report (for a chat message or a ticket)' })
        .option('metrics', { type: 'string', describe: "write Prometheus metrics (node_exporter's textfile format)" })
        .option('waivers', { type: 'string', describe: 'waivers file (default: waivers.yml beside the inventory)' })
        .option('host', { type: 'string', describe: 'show: only items of hosts matching this glob' })
        .option('task', { type: 'string', describe: 'show: only items of this task' })
        .option('runs', {
          type: 'string',
          default: '20',
          coerce: positiveInteger('--runs'),
          describe: 'history: how many runs',
        })
        .option('accept-new', { type: 'boolean', default: false, describe: 'record unknown host keys' })
        .option('known-hosts', { type: 'string', describe: 'known_hosts file for every host' })
        .options(OUTPUT_OPTIONS)
        .options(CONNECTION_OPTIONS)
        .group(Object.keys(CONNECTION_OPTIONS), CONNECTION_GROUP)
        .example(DRIFT_EXAMPLES.map(([c, d]) => [c, d]))
        .epilogue(driftEpilogue()),
    async (a) => {
      const words = (a.args ?? []).map(String);
      const state = a.state;
      if (words[0] === 'history') {
        if (words.length > 1) throw new UsageError(`drift history takes no argument, got '${words[1]}'`);
        const { driftHistory } = await import('../drift/run/history.js');
        io.code = await driftHistory({ state, limit: a.runs as unknown as number, json: a.json }, io.out);
        return;
      }
      if (words[0] === 'show') {
        if (words.length > 2) throw new UsageError(`drift show takes one run, got '${words.slice(1).join(' ')}'`);
        const { driftShow } = await import('../drift/run/history.js');
        io.code = await driftShow(
          { state, run: words[1] ?? 'latest', host: a.host, task: a.task, json: a.json },
          io.out,
        );
        return;
      }
      const [{ openVault, vaultFlagsOf }, { configuredForks }, { readConnectionFlags }, { driftInventory }] =
        await Promise.all([
          import('../vault/passwords.js'),
          import('../ansible-config/run-settings.js'),
          import('./connection-flags.js'),
          import('./drift-inventory.js'),
        ]);
      // Asked once, before the vault password (as ansible-playbook asks), also for every run of a schedule.
      const connection = await readConnectionFlags(a);
      const inventory = (a as { inventory?: string | string[] }).inventory;
      const forks = configuredForks(a.forks as unknown as number | undefined);
      // The vault options are global (main.ts); read once, also for every run of a schedule.
      const vault = await openVault(vaultFlagsOf(a));
      const drift = {
        playbooks: words,
        inventory,
        inventories: driftInventory(inventory, vault, connection),
        limit: a.limit,
        forks,
        timeout: a.timeout as unknown as number,
        state,
        keep: a.keep,
        json: a.json,
        waivers: a.waivers,
        notify: a.notify,
        junit: a.junit,
        html: a.html,
        markdown: a.markdown,
        metrics: a.metrics,
        acceptNew: a.acceptNew,
        knownHosts: a.knownHosts,
        ...outputArgsOf(a),
      };
      if (a.every) {
        io.cleanStop = true;
        const [{ driftLoop }, { driftOutputs }] = await Promise.all([
          import('../drift/run/loop.js'),
          import('../drift/run/outputs.js'),
        ]);
        // Opened once for the whole schedule: --events and --log get every tick's runs, one after another.
        const outputs = driftOutputs(drift, io.out, io.err);
        try {
          io.code = await driftLoop(
            {
              ...drift,
              outputs,
              every: a.every,
              jitter: a.jitter,
              missed: a.missed as 'skip' | 'once',
              scheduleId: a.scheduleId,
            },
            io.out,
            io.err,
          );
        } finally {
          outputs.close();
        }
      } else {
        const { driftRun } = await import('../drift/run/drift-run.js');
        io.code = await driftRun(drift, io.out, io.err);
      }
    },
  );
}
