// Durations beyond what play supports, refused through the real CLI before anything runs: a step's
// time limit, the rolling waits (soak, drain, Ready) up to 7 days, a --every interval up to a year,
// --jitter up to the schedule's interval. A flag is the command line's fault (64), the playbook's
// rolling block the playbook's (65). Rows "at the limit" pass the limit and fail on the next option,
// so they show the limit itself is accepted.
import {
  type CliRow,
  cliTable,
  ONE_HOST_INVENTORY as INVENTORY,
  OK_PLAYBOOK,
  playbookText,
} from '../helpers/cli-table.js';

const WEEK = /expected at most 604800 seconds \(7 days\)/;
const rollingPlaybook = (rolling: string) =>
  playbookText(
    `export default definePlaybook({ name: 'roll', description: 'x', rolling: ${rolling}, tasks: { d: { on: 'linux', step: directory({ path: '/srv/play-cli-errors' }) } } });`,
  );
const RUN_FILES = { 'ok.ts': OK_PLAYBOOK, 'inv.yaml': INVENTORY };

const rows: Record<string, CliRow> = {
  '--timeout 2500000 (29 days, past what a timer holds)': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--timeout', '2500000', '--check'],
    files: RUN_FILES,
    code: 64,
    message: new RegExp(`^play: --timeout '2500000': ${WEEK.source}`, 'm'),
  },
  '--timeout just past a week': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--timeout', '604800.5', '--check'],
    files: RUN_FILES,
    code: 64,
    message: /--timeout '604800\.5': expected at most 604800 seconds/,
  },
  '--timeout of a week is accepted (the run stops at the next option)': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--timeout', '604800', '--serial', '0', '--check'],
    files: RUN_FILES,
    code: 64,
    message: /^play: --serial: .*got "0"$/m,
  },
  'drift: --timeout 2500000': {
    argv: ['drift', '--timeout', '2500000'],
    code: 64,
    message: new RegExp(`--timeout '2500000': ${WEEK.source}`),
  },
  '--soak past a week': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '1', '--soak', '604801', '--check'],
    files: RUN_FILES,
    code: 64,
    message: new RegExp(`--soak '604801': ${WEEK.source}`),
  },
  '--drain-timeout past a week': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '1', '--drain-timeout', '2500000', '--check'],
    files: RUN_FILES,
    code: 64,
    message: new RegExp(`--drain-timeout '2500000': ${WEEK.source}`),
  },
  '--ready-timeout past a week': {
    argv: ['ok.ts', '-i', 'inv.yaml', '--serial', '1', '--ready-timeout', '604801', '--check'],
    files: RUN_FILES,
    code: 64,
    message: new RegExp(`--ready-timeout '604801': ${WEEK.source}`),
  },
  "a rolling block's soakSec past a week (the playbook's fault)": {
    argv: ['roll.ts', '-i', 'inv.yaml', '--check'],
    files: { 'roll.ts': rollingPlaybook('{ serial: 1, soakSec: 700000 }'), 'inv.yaml': INVENTORY },
    code: 65,
    message: /roll\.ts: rolling\.soakSec: expected at most 604800 seconds \(7 days\), got 700000/,
  },
  "a rolling block's readyTimeoutSec past a week": {
    argv: ['roll.ts', '-i', 'inv.yaml', '--check'],
    files: { 'roll.ts': rollingPlaybook('{ serial: 1, readyTimeoutSec: 2500000 }'), 'inv.yaml': INVENTORY },
    code: 65,
    message: /roll\.ts: rolling\.readyTimeoutSec: expected at most 604800 seconds \(7 days\), got 2500000/,
  },
  'drift: --every past a year': {
    argv: ['drift', '--every', '400d'],
    code: 64,
    message:
      /--every '400d': an interval must be at most 365d \(a year\); for a yearly run give a cron schedule such as '0 0 1 1 \*'/,
  },
  'drift: --jitter longer than the interval': {
    argv: ['drift', '--every', '1h', '--jitter', '2h'],
    code: 64,
    message: /--jitter '2h': must be at most the interval of --every '1h' \(1h\)/,
  },
  'drift: --jitter longer than the shortest time between two cron runs': {
    argv: ['drift', '--every', '*/15 * * * *', '--jitter', '20m'],
    code: 64,
    message:
      /--jitter '20m': must be at most the shortest time between two runs of --every '\*\/15 \* \* \* \*' \(15m\)/,
  },
  'drift: --every of a year is accepted (the loop stops at --jitter)': {
    argv: ['drift', '--every', '365d', '--jitter', '366d'],
    code: 64,
    message: /--jitter '366d': must be at most the interval of --every '365d' \(365d\)/,
  },
};

cliTable(rows);
