// What `play --help` teaches besides the options: everyday examples, the exit codes and the environment
// variables play reads. Data only, one list each, so a new variable or command is one line here; the
// exit codes are README's table (runner/core/errors.ts, runner/report/model.ts exitCode,
// runner/state/store-errors.ts), and test/cli/help-text.test.ts checks the variables against the
// variables the sources read (process.env and env objects) so the list cannot go stale.

/** `[command, what it does]`, as `play --help` shows them under Examples. */
export const EXAMPLES: readonly (readonly [string, string])[] = [
  ['play lab up --linux 3', "the built-in lab (root): prints its inventory's path"],
  ['play list', 'the playbooks with their descriptions'],
  ["play hosts 'linux:!linux2'", "preview a host pattern (Ansible's grammar)"],
  ['play bench --check --diff', 'plan only: what would change (exit 2 if anything would)'],
  ["play bench -l 'linux[0:1]'", 'apply to the first two linux hosts'],
  ['play bench --json > report.json', 'the report as JSON on stdout (progress on stderr)'],
  ['play drift --metrics drift.prom', 'what differs from the desired state, changing nothing'],
  ['source <(play completion bash)', 'tab completion of commands, options, playbooks and groups'],
];

/** Examples of `play drift --help`. */
export const DRIFT_EXAMPLES: readonly (readonly [string, string])[] = [
  ['play drift', 'every drift-checked playbook on every host it targets; exit 2 on drift'],
  ['play drift tor-gateway -l tor1 --json', 'one playbook on one host, the run as JSON'],
  ['play drift --junit drift.xml', 'a JUnit report for CI (--html, --markdown: for people)'],
  ["play drift --every '0 * * * *'", 'every hour, until stopped (with --metrics FILE: for Prometheus)'],
  ['play drift history', 'the past runs; play drift show latest: the last one'],
];

/** The exit codes of every command (README's table, in short). */
export const EXIT_CODES: readonly (readonly [number, string])[] = [
  [0, 'success (check mode, drift: nothing would change)'],
  [2, 'check mode or drift found changes'],
  [3, 'a host failed'],
  [4, 'a host was unreachable (and none failed)'],
  [64, 'usage error: a bad option, count or pattern, a missing file named by a flag'],
  [65, "invalid input: inventory, playbook, vault, waivers, or a state store that is not play's"],
  [69, "a rolling run: another run holds the inventory's lease, or this run lost it"],
  [70, 'internal error: a bug in play (the message asks to report it)'],
  [71, 'play lab up/down failed: the message names the part, its log and what to do'],
  [74, 'the state store cannot be written (disk full, read-only, PostgreSQL unreachable)'],
  [75, 'a rolling run paused outside its window (--resume later), or the state store stayed locked'],
  [130, 'interrupted (Ctrl-C): running steps finished, the report was written'],
];

/** Every environment variable play reads, with what it means. A `.env` file in the working directory is loaded first. */
export const ENVIRONMENT: readonly (readonly [string, string])[] = [
  ['PLAY_INVENTORY', "the inventory when -i is not given (else the lab's)"],
  ['PLAY_STATE', 'the state store: a SQLite file or a postgres:// URL (default ~/.local/state/play/state.db)'],
  ['XDG_STATE_HOME', 'where the default state store lives ($XDG_STATE_HOME/play/state.db)'],
  [
    'PLAY_LEASE_TTL',
    'seconds a rolling run or a shared drift schedule holds its lease without a heartbeat (1-3600, default 30)',
  ],
  ['PLAY_LAB_DIR', "the lab's directory (default /var/lib/play-lab)"],
  ['PLAY_PWSH_HOST_DIR', "another build of the lab's simulated PowerShell host (lab development)"],
  ['PLAY_HEARTBEAT_SEC', 'seconds between the progress lines of a run without a terminal (default 30)'],
  ['PLAY_SOURCE_MAPS', "1: an internal error's stack trace names the TypeScript sources (a checkout; slower start)"],
  ['PLAY_PROMETHEUS_TOKEN', "a rolling run's alert gate: the bearer token for --gate-prometheus"],
  ['PLAY_PROMETHEUS_USER, PLAY_PROMETHEUS_PASSWORD', 'or basic auth to it (both, when there is no token)'],
  [
    'PLAY_KEEP_CONNECTIONS',
    'play drift --every/--cron: connections kept open between runs at most (default 2000, 0: none)',
  ],
  [
    'PLAY_KEEP_IDLE_TICKS',
    'play drift --every/--cron: runs a kept connection may go unused before it is closed (default 3)',
  ],
  ['ANSIBLE_VAULT_PASSWORD_FILE', 'a vault password file, as with --vault-password-file'],
  ['ANSIBLE_CONFIG', 'the ansible.cfg to read (else ./ansible.cfg, ~/.ansible.cfg, /etc/ansible/ansible.cfg)'],
  ['SSH_AUTH_SOCK', "ssh-agent's socket: its keys are tried after the inventory's key files"],
  ['HOME', '~/.ssh/config, ~/.ssh/known_hosts, ~/.pgpass'],
  ['USER, LOGNAME, USERNAME', 'the SSH user when the inventory and ~/.ssh/config name none'],
  ['PGHOST, PGPORT, PGUSER, PGDATABASE', "a PostgreSQL state store's server, as libpq reads them"],
  ['PGPASSWORD, PGPASSFILE', 'its password, or the file of passwords (default ~/.pgpass)'],
  ['PGSSLMODE, PGSSLROOTCERT, PGSSLCERT, PGSSLKEY', 'its TLS settings'],
  ['PGCONNECT_TIMEOUT, PGAPPNAME', 'its connect timeout (seconds, default 10) and application name'],
  ['SHELL, ZSH_NAME', 'the shell `play completion` writes for when none is named (zsh, else bash)'],
  ["any name in {{ lookup('env', NAME) }}", 'an inventory secret, read only when a step needs it'],
];

/** Every variable name ENVIRONMENT documents (a row may name several). */
export function documentedVariables(): string[] {
  return ENVIRONMENT.flatMap(([names]) => names.split(', ')).filter((n) => /^[A-Z][A-Z0-9_]*$/.test(n));
}

/** yargs wraps the epilogue at 80 columns: rows are wrapped here first, so that a meaning continues under itself. */
const WIDTH = 80;

/** Rows as two columns, the first padded to the widest (at most `keyWidth`: a longer key has its own line). */
function table(rows: readonly (readonly [string | number, string])[], keyWidth = 28): string[] {
  const width = Math.min(keyWidth, Math.max(...rows.map(([k]) => String(k).length)));
  const indent = ' '.repeat(width + 4);
  return rows.flatMap(([k, v]) => {
    const key = String(k);
    const lines = wrap(v, WIDTH - indent.length);
    const first = key.length <= width ? [`  ${key.padEnd(width)}  ${lines.shift()}`] : [`  ${key}`];
    return [...first, ...lines.map((l) => indent + l)];
  });
}

/** Words into lines of at most `width` characters (a longer word keeps its own line). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The epilogue of `play --help`: exit codes, environment, where to read more. */
export function mainEpilogue(): string {
  return [
    'Exit codes:',
    ...table(EXIT_CODES),
    '',
    'Environment (a .env file in the working directory is read first):',
    ...table(ENVIRONMENT),
    '',
    'More: README.md, docs/ (play --help of each command: its own options)',
  ].join('\n');
}

/** The epilogue of `play drift --help`: its exit codes and where the metrics are explained. */
export function driftEpilogue(): string {
  return [
    'Exit codes:',
    ...table([
      [0, 'no drift on any host'],
      [2, 'drift'],
      [3, 'a host failed to be probed'],
      [4, 'hosts unreachable, no drift on the others'],
      ['64, 65, 74, 75', 'as for every command (play --help)'],
    ]),
    '',
    ...wrap(
      'A playbook left out (its hosts, or a group it reads from, are not in the inventory) is a warning and a field of every report; an unreachable host is never counted under "no drift".',
      WIDTH - 2,
    ),
  ].join('\n');
}
