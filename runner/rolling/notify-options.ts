// The command-line options of a rolling run's gate and notices (--gate-prometheus, --gate-query,
// --gate-alert, --notify): one table, so run-cli.ts adds them with one line and hands them on as
// RollingOverrides. The values are checked by alert-gate/spec.ts (with the playbook's block) and
// notify-queue.ts.
import type { Options } from 'yargs';
import type { RollingOverrides } from './policy.js';

export const ROLLING_NOTICE_OPTIONS = {
  'gate-prometheus': {
    type: 'string',
    requiresArg: true,
    describe: 'Prometheus to ask before each batch (credentials: PLAY_PROMETHEUS_TOKEN, never in the URL)',
  },
  'gate-query': {
    type: 'string',
    array: true,
    requiresArg: true,
    describe: 'PromQL whose result holds the next batch while it has series (repeatable)',
  },
  'gate-alert': {
    type: 'string',
    array: true,
    requiresArg: true,
    describe: 'an alert name that holds the next batch while Prometheus has it firing (repeatable)',
  },
  notify: {
    type: 'string',
    requiresArg: true,
    describe: 'POST a JSON message here: run started, batch done, node failed, paused, stopped, done',
  },
} as const satisfies Record<string, Options>;

interface NoticeFlags {
  gatePrometheus?: string;
  gateQuery?: (string | number)[];
  gateAlert?: (string | number)[];
  notify?: string;
}

/** The flags as RollingOverrides' fields (absent when not given). */
export function rollingNoticeArgsOf(
  a: NoticeFlags,
): Pick<RollingOverrides, 'gatePrometheus' | 'gateQuery' | 'gateAlert' | 'notify'> {
  return {
    gatePrometheus: a.gatePrometheus,
    gateQuery: a.gateQuery?.map(String),
    gateAlert: a.gateAlert?.map(String),
    notify: a.notify,
  };
}
