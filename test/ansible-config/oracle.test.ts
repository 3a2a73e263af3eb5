// `play config --json` against Ansible's own reading of the same ansible.cfg and environment:
// `ansible-config dump --only-changed` (Debian's ansible-core) on each case of corpus/, run with the
// case's file as ANSIBLE_CONFIG, its env.json, and a clean HOME and working directory. For every key play
// honours, play's value and origin (the variable, or the file) equal Ansible's; a key Ansible reports
// unchanged is at play's default. Runs the CLI from dist/: `node scripts/build.mjs` first.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SETTING_KEYS } from '../../runner/ansible-config/keys.js';
import { projectRoot } from '../helpers/play.js';
import { playWithEnv } from './play-config-cli.js';

const CORPUS = resolve(projectRoot, 'test/ansible-config/corpus');
const ANSIBLE_CONFIG = '/usr/bin/ansible-config';

type Row = { value: unknown; origin: string };

/** Only the variables a case sets, over a minimal environment: no ANSIBLE_* of the caller leaks in. */
function caseEnv(dir: string, home: string): NodeJS.ProcessEnv {
  const file = join(dir, 'env.json');
  const own = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  return { PATH: process.env.PATH, HOME: home, ANSIBLE_CONFIG: join(dir, 'ansible.cfg'), ...own };
}

function ansibleDump(
  env: NodeJS.ProcessEnv,
  cwd: string,
  extra: string[],
): { name: string; origin: string; value: unknown }[] {
  const r = spawnSync(ANSIBLE_CONFIG, ['dump', '--only-changed', '--format', 'json', ...extra], {
    env,
    cwd,
    encoding: 'utf8',
  });
  if (r.error || r.status !== 0) throw new Error(`ansible-config failed: ${r.error?.message ?? r.stderr}`);
  const json = JSON.parse(r.stdout) as unknown[];
  // With -t connection ssh: [{ ssh: [...] }], or [] when no ssh option is changed.
  return extra.length ? ((json[0] as { ssh?: never[] } | undefined)?.ssh ?? []) : (json as never);
}

/** Ansible's view, keyed as play names the settings: value and origin (`env: NAME` or the file). */
function ansibleTable(env: NodeJS.ProcessEnv, cwd: string): Record<string, Row> {
  const rows = [...ansibleDump(env, cwd, []), ...ansibleDump(env, cwd, ['-t', 'connection', 'ssh'])];
  const table: Record<string, Row> = {};
  for (const k of SETTING_KEYS) {
    const found = rows.find((r) => r.name === k.ansible);
    table[k.key] = found ? { value: found.value, origin: found.origin } : { value: 'unchanged', origin: 'default' };
  }
  return table;
}

/** play's view in the same shape: `ANSIBLE_X` becomes `env: ANSIBLE_X`, `/file:LINE` the file. */
function playTable(json: { settings: Record<string, Row> }): Record<string, Row> {
  const table: Record<string, Row> = {};
  for (const k of SETTING_KEYS) {
    const s = json.settings[k.key]!;
    const origin =
      s.origin === 'default'
        ? 'default'
        : s.origin.startsWith('ANSIBLE_')
          ? `env: ${s.origin}`
          : s.origin.replace(/:\d+$/, '');
    table[k.key] = origin === 'default' ? { value: 'unchanged', origin } : { value: s.value, origin };
  }
  return table;
}

test('the oracle is installed (the comparison fails rather than skips without it)', (t) => {
  t.true(existsSync(ANSIBLE_CONFIG), `${ANSIBLE_CONFIG} is missing: apt-get install ansible-core`);
});

const cases = readdirSync(CORPUS).sort();

test('the corpus has cases', (t) => {
  t.true(cases.length >= 6, cases.join(', '));
});

for (const name of cases) {
  test(`corpus ${name}: play config --json agrees with ansible-config dump`, (t) => {
    const dir = join(CORPUS, name);
    const clean = mkdtempSync(join(tmpdir(), 'play-ansible-config-'));
    t.teardown(() => rmSync(clean, { recursive: true, force: true }));
    const env = caseEnv(dir, join(clean, 'home'));
    const expected = ansibleTable(env, clean);
    const r = playWithEnv(['config', '--json'], env, clean);
    t.is(r.code, 0, r.stderr);
    t.deepEqual(playTable(JSON.parse(r.stdout)), expected);
  });
}
