// The default command, `play PLAYBOOK [options]`: its options and how they reach run-command.ts. Kept
// apart from main.ts, which composes the commands.
import type { Argv } from 'yargs';
import { atMostAWeek, optionalNonNegativeNumber, optionalPositiveInteger, positiveNumber } from './coerce.js';
import { CONNECTION_GROUP, CONNECTION_OPTIONS } from './connection-flags.js';
import type { Io } from './io.js';
import { OUTPUT_OPTIONS, outputArgsOf } from './output-options.js';
import { PART_GROUP, PART_OPTIONS, partArgsOf } from './part-options.js';
import { ROLLING_NOTICE_OPTIONS, rollingNoticeArgsOf } from '../rolling/notify-options.js';

const DEFAULT_FORKS = 20;

/** `play PLAYBOOK [options]`, the default command. */
// Long because it is declarative: yargs' table of the run's options (rolling ones included), one entry each.
export function runCommandLine<T>(y: Argv<T>, io: Io) {
  return y.command(
    '$0 <playbook>',
    'run a playbook',
    (c) =>
      c
        .positional('playbook', { type: 'string', demandOption: true, describe: 'a name from `play list`, or a path' })
        .option('limit', {
          alias: 'l',
          type: 'string',
          describe: 'host pattern (Ansible grammar) narrowing the targets',
        })
        .option('check', {
          alias: 'C',
          type: 'boolean',
          default: false,
          describe: 'plan only: report what would change, change nothing',
        })
        .option('diff', {
          alias: 'D',
          type: 'boolean',
          default: false,
          describe: 'show before/after values and text diffs',
        })
        .option('forks', {
          alias: 'f',
          type: 'string',
          coerce: optionalPositiveInteger('--forks'),
          describe: `hosts worked on at once (default: ansible.cfg's forks or ANSIBLE_FORKS, else ${DEFAULT_FORKS})`,
        })
        .option('timeout', {
          type: 'string',
          default: '300',
          coerce: atMostAWeek('--timeout', positiveNumber('--timeout')),
          describe: 'per-step time limit, seconds (at most 604800: 7 days)',
        })
        .option('report', { type: 'string', describe: 'write the JSON report to this file' })
        .option('json', {
          type: 'boolean',
          default: false,
          describe: 'print the JSON report on stdout (progress goes to stderr)',
        })
        .option('extra-vars', {
          alias: 'e',
          type: 'string',
          array: true,
          default: [] as string[],
          describe:
            'key=value text (\'a=1 b="x y"\'), @FILE (YAML or JSON, may be vault-encrypted) or JSON; overrides inventory variables',
        })
        .option('accept-new', {
          type: 'boolean',
          default: false,
          describe: 'record unknown host keys (a changed key is always refused)',
        })
        .option('known-hosts', {
          type: 'string',
          describe: 'known_hosts file for every host (overrides the inventory; default ~/.ssh/known_hosts)',
        })
        .option('live', {
          type: 'boolean',
          default: true,
          describe: 'live view on a terminal (--no-live: one line per host)',
        })
        .options(OUTPUT_OPTIONS)
        .options(PART_OPTIONS)
        .group(Object.keys(PART_OPTIONS), PART_GROUP)
        .options(CONNECTION_OPTIONS)
        .group(Object.keys(CONNECTION_OPTIONS), CONNECTION_GROUP)
        .group(
          [
            'serial',
            'max-fail',
            'max-per-domain',
            'soak',
            'window',
            'drain-timeout',
            'on-drain-timeout',
            'ready-timeout',
            'resume',
            'allow-changed',
            'try-blocked',
            'on-failure',
            'stage',
            'state',
            ...Object.keys(ROLLING_NOTICE_OPTIONS),
          ],
          'Rolling runs (hotfix-windows; any playbook with --serial):',
        )
        .option('serial', { type: 'string', describe: "batch sizes: a count, a percentage or a list ('1,50%')" })
        .option('max-fail', {
          type: 'string',
          describe: "failures the whole run tolerates: a count or a percentage of the targeted hosts ('20%')",
        })
        .option('max-per-domain', {
          type: 'string',
          coerce: optionalPositiveInteger('--max-per-domain'),
          describe: 'at most this many hosts of one failure domain (host var failure_domain) in a batch',
        })
        .option('soak', {
          type: 'string',
          coerce: atMostAWeek('--soak', optionalNonNegativeNumber('--soak')),
          describe: "seconds a batch's nodes must stay Ready before the next batch (at most 7 days)",
        })
        .option('window', { type: 'string', describe: "maintenance window: 'Sat,Sun 01:00-05:00 Asia/Shanghai'" })
        .option('drain-timeout', {
          type: 'string',
          coerce: atMostAWeek('--drain-timeout', optionalPositiveInteger('--drain-timeout')),
          describe: 'seconds kubectl drain may take (default 300, at most 7 days)',
        })
        .option('on-drain-timeout', {
          type: 'string',
          choices: ['uncordon', 'keep-cordoned'],
          describe: 'a node whose drain failed: uncordon it (default) or leave it cordoned',
        })
        .option('ready-timeout', {
          type: 'string',
          coerce: atMostAWeek('--ready-timeout', optionalPositiveInteger('--ready-timeout')),
          describe: 'seconds a node may take to be Ready after its tasks (default 600, at most 7 days)',
        })
        .option('resume', {
          type: 'boolean',
          default: false,
          describe: 'continue the last unfinished rolling run of this playbook on this inventory',
        })
        .option('allow-changed', {
          type: 'boolean',
          default: false,
          describe: 'resume even if the playbook or inventory changed since the run started',
        })
        .option('on-failure', {
          type: 'string',
          choices: ['stop', 'rollback'],
          describe:
            'a node that fails after its install (not Ready): stop (default) or rollback (remove the update, reboot, uncordon, quarantine the KB)',
        })
        .option('stage', {
          type: 'boolean',
          default: false,
          describe:
            "run only the playbook's staging tasks (hotfix-windows: upload, expand and verify the .msu) on the nodes that need work, ahead of the window; never cordons",
        })
        .option('try-blocked', {
          type: 'boolean',
          default: false,
          describe: 'drain a node whose drain the preflight predicts to block, rather than refuse it',
        })
        .option('state', {
          type: 'string',
          describe: 'the state store (default: $PLAY_STATE, else ~/.local/state/play/state.db)',
        })
        .options(ROLLING_NOTICE_OPTIONS),
    async (a) => {
      const [{ runCommand }, { openVault, vaultFlagsOf }, { readConnectionFlags }, { configuredForks }] =
        await Promise.all([
          import('./run-command.js'),
          import('../vault/passwords.js'),
          import('./connection-flags.js'),
          import('../ansible-config/run-settings.js'),
        ]);
      // Asked before the vault password, as ansible-playbook asks.
      const connection = await readConnectionFlags(a);
      const result = await runCommand(
        {
          playbook: a.playbook,
          inventory: (a as { inventory?: string }).inventory,
          limit: a.limit,
          check: a.check,
          diff: a.diff,
          forks: configuredForks(a.forks as unknown as number | undefined),
          timeout: a.timeout as unknown as number,
          report: a.report,
          json: a.json,
          extraVars: a.extraVars.map(String),
          vault: await openVault(vaultFlagsOf(a)),
          connection,
          acceptNew: a.acceptNew,
          knownHosts: a.knownHosts,
          live: a.live ? 'auto' : 'never',
          ...outputArgsOf(a),
          part: partArgsOf(a),
          rolling: {
            overrides: {
              serial: a.serial,
              maxFail: a.maxFail,
              maxPerDomain: a.maxPerDomain as unknown as number | undefined,
              soak: a.soak as unknown as number | undefined,
              window: a.window,
              drainTimeout: a.drainTimeout as unknown as number | undefined,
              onDrainTimeout: a.onDrainTimeout,
              readyTimeout: a.readyTimeout as unknown as number | undefined,
              ...rollingNoticeArgsOf(a),
            },
            resume: a.resume,
            allowChanged: a.allowChanged,
            state: a.state,
            tryBlocked: a.tryBlocked,
            stage: a.stage,
            onFailure: a.onFailure as 'stop' | 'rollback' | undefined,
          },
        },
        io.out,
        io.err,
        io.signal,
      );
      io.code = result.code;
    },
  );
}
