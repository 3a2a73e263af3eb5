// Secrets the command line refuses, through the real CLI: a variable whose name says it holds a
// secret is not taken as a -e value (ps, shell history and a rolling run's journal would keep it),
// only as an env lookup; a value from the environment too short to be masked is refused. No row
// touches a host: each fails before anything is connected. The value itself is never in the message.
import test from 'ava';
import { Secret } from '../../runner/core/secret.js';
import { parseExtraVars } from '../../runner/cli/extra-vars.js';
import { type CliRow, cliTable, ONE_HOST_INVENTORY as INVENTORY, OK_PLAYBOOK } from '../helpers/cli-table.js';

const FILES = { 'inv.yaml': INVENTORY, 'ok.ts': OK_PLAYBOOK };
const RUN = ['ok.ts', '-i', 'inv.yaml'];
const LOOKUP = "{{ lookup('env', 'PLAY_T_VRRP') }}";
/** The refusal of a secret-named -e value, with `fix` as the advice, and the value nowhere in stderr. */
const refusal = (path: string, fix: string) =>
  new RegExp(
    `^(?![\\s\\S]*hunter22)play: -e ${path.replace('.', '\\.')}: its name says it holds a secret, and a value on ` +
      `the command line shows in ps, shell history and a rolling run's journal: write ${fix} and put the value in the environment or in \\.env`,
  );
const TOP_LEVEL_FIX = `-e "vrrp_auth_pass=\\{\\{ lookup\\('env', 'VRRP_AUTH_PASS'\\) \\}\\}"`;

const rows: Record<string, CliRow> = {
  '-e vrrp_auth_pass=x on a run': {
    argv: [...RUN, '-e', 'vrrp_auth_pass=hunter22'],
    files: FILES,
    code: 64,
    message: refusal('vrrp_auth_pass', TOP_LEVEL_FIX),
  },
  '-e vrrp_auth_pass=x on a rolling run (refused before the journal records -e)': {
    argv: [...RUN, '--serial', '1', '--state', 'state.db', '-e', 'vrrp_auth_pass=hunter22'],
    files: FILES,
    code: 64,
    message: refusal('vrrp_auth_pass', TOP_LEVEL_FIX),
  },
  '-e ansible_become_password=x in a JSON object': {
    argv: [...RUN, '-e', '{"ansible_become_password": "hunter22"}'],
    files: FILES,
    code: 64,
    message: refusal('ansible_become_password', `-e "ansible_become_password=.*"`),
  },
  '-e with a secret-named key nested in JSON': {
    argv: [...RUN, '-e', '{"vrrp": {"auth_pass": "hunter22"}}'],
    files: FILES,
    code: 64,
    message: refusal('vrrp.auth_pass', `its value as "\\{\\{ lookup\\('env', 'AUTH_PASS'\\) \\}\\}"`),
  },
  '-e with broken JSON naming a secret: the text is not echoed': {
    argv: [...RUN, '-e', '{"vrrp_auth_pass": "hunter22",}'],
    files: FILES,
    code: 64,
    message: /^(?![\s\S]*hunter22)play: -e \(a JSON object naming vrrp_auth_pass, not shown\): not valid JSON/,
  },
  '-e with an env lookup whose value is under 4 characters': {
    argv: [...RUN, '-e', `vrrp_auth_pass=${LOOKUP}`],
    files: FILES,
    env: { PLAY_T_VRRP: 'abc' },
    code: 65,
    message:
      /^(?![\s\S]*abc)play: -e vrrp_auth_pass comes from environment variable PLAY_T_VRRP, whose value is 3 characters long: a secret needs at least 4/,
  },
  '-e with an env lookup of an unset variable': {
    argv: [...RUN, '-e', `vrrp_auth_pass=${LOOKUP}`],
    files: FILES,
    env: { PLAY_T_VRRP: undefined },
    code: 65,
    message:
      /play: -e vrrp_auth_pass needs environment variable PLAY_T_VRRP, which is not set: export it or put it in \.env/,
  },
  'an inventory secret under 4 characters, refused before any host is touched': {
    argv: RUN,
    files: {
      ...FILES,
      'inv.yaml': INVENTORY.replace('ansible_port: 9', `ansible_port: 9, ansible_password: "${LOOKUP}"`),
    },
    env: { PLAY_T_VRRP: 'abc' },
    code: 65,
    message:
      /inv\.yaml: host a: ansible_password comes from environment variable PLAY_T_VRRP, whose value is 3 characters long/,
  },
};

cliTable(rows);

/** The value with each Secret as `source: clear text`, so that a comparison sees what it holds. */
function revealAll(v: unknown): unknown {
  if (v instanceof Secret) return `${v.source}: ${v.reveal()}`;
  if (Array.isArray(v)) return v.map(revealAll);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revealAll(x)]));
  return v;
}

test('-e: an env lookup is a Secret from the environment, any other value a string', (t) => {
  const vars = parseExtraVars(
    [
      `vrrp_auth_pass=${LOOKUP}`,
      'dir=/srv/x',
      `{"nested": {"db_password": "${LOOKUP}", "n": 2}, "list": ["${LOOKUP}"]}`,
    ],
    { PLAY_T_VRRP: 'long-enough' },
  );
  t.true(vars.vrrp_auth_pass instanceof Secret);
  const secret = 'env:PLAY_T_VRRP: long-enough';
  t.deepEqual(revealAll(vars), {
    vrrp_auth_pass: secret,
    dir: '/srv/x',
    nested: { db_password: secret, n: 2 },
    list: [secret],
  });
  t.deepEqual(parseExtraVars(['{"vrrp_auth_pass": null}'], {}), { vrrp_auth_pass: null });
});
