// ansible.cfg through the CLI as a user types it, without the lab (PLAY_LAB_DIR names no lab, so
// "the lab's inventory" never applies): `play --version`, `play config`, which inventory `play hosts`
// reads and why, and bad input. Runs the CLI from dist/: `node scripts/build.mjs` first.
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { playWithEnv } from './play-config-cli.js';

const INVENTORY = 'all:\n  hosts:\n    web1: {ansible_host: 198.18.0.250}\n    web2: {ansible_host: 198.18.0.251}\n';

/** A project folder (cwd), an empty HOME and lab folder; `cfg`: its ansible.cfg. */
function project(t: import('ava').ExecutionContext, cfg?: string) {
  const root = mkdtempSync(join(tmpdir(), 'play-cfg-cli-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'proj');
  for (const d of [dir, join(root, 'home'), join(dir, 'inv')]) mkdirSync(d, { mode: 0o755 });
  writeFileSync(join(dir, 'inv', 'hosts.yaml'), INVENTORY);
  if (cfg !== undefined) writeFileSync(join(dir, 'ansible.cfg'), cfg);
  // A lab folder that does not exist (the lab's may not be under /tmp): no lab is up there.
  const env = { HOME: join(root, 'home'), PLAY_LAB_DIR: `/nonexistent${root}` };
  return {
    dir,
    env,
    run: (args: string[], more: NodeJS.ProcessEnv = {}) => playWithEnv(args, { ...env, ...more }, dir),
  };
}

const versionLines = (stdout: string) => stdout.split('\n').slice(2);

test('play --version: exit 0, the config file and the inventory in effect with its origin', (t) => {
  const p = project(t, '[defaults]\ninventory = inv/hosts.yaml\n');
  const cfg = join(p.dir, 'ansible.cfg');
  const hosts = join(p.dir, 'inv', 'hosts.yaml');
  const runs = [
    p.run(['--version']),
    p.run(['--version', '-i', 'inv/hosts.yaml']),
    p.run(['--version'], { ANSIBLE_INVENTORY: 'inv' }),
    p.run(['--version'], { ANSIBLE_CONFIG: join(p.env.HOME, 'none.cfg') }),
  ];
  t.deepEqual(
    runs.map((r) => [r.code, ...versionLines(r.stdout)]),
    [
      [0, `config file: ${cfg}`, `inventory: ${hosts} (from ansible.cfg ${cfg})`, ''],
      [0, `config file: ${cfg}`, `inventory: ${hosts} (from -i)`, ''],
      [0, `config file: ${cfg}`, `inventory: ${join(p.dir, 'inv')} (from ANSIBLE_INVENTORY)`, ''],
      [0, `config file: ${cfg}`, `inventory: ${hosts} (from ansible.cfg ${cfg})`, ''],
    ],
  );
  t.regex(runs[0]!.stdout, /^play \d+\.\d+\.\d+\nnode v\d+/);
});

test('play --version with no inventory anywhere: "none", still exit 0', (t) => {
  const p = project(t);
  const r = p.run(['--version']);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(versionLines(r.stdout)[0], 'config file: none');
  t.regex(versionLines(r.stdout)[1]!, /^inventory: none \(no inventory: pass -i FILE/);
});

test('play hosts reads the inventory ansible.cfg names; -i, PLAY_INVENTORY and ANSIBLE_INVENTORY come first', (t) => {
  const p = project(t, '[defaults]\ninventory = inv/hosts.yaml\n');
  writeFileSync(join(p.dir, 'other.yaml'), 'all:\n  hosts:\n    db1: {}\n');
  const hosts = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const r = p.run(['hosts', 'all', ...args], env);
    return r.code === 0 ? r.stdout : r.stderr;
  };
  t.deepEqual(
    [
      hosts([]),
      hosts(['-i', 'other.yaml']),
      hosts([], { PLAY_INVENTORY: 'other.yaml' }),
      hosts([], { ANSIBLE_INVENTORY: 'other.yaml' }),
    ],
    ['web1\nweb2\n', 'db1\n', 'db1\n', 'db1\n'],
  );
});

test('play config: the file, each setting with its value and origin; --json', (t) => {
  const p = project(t, '[defaults]\nforks = 7\nfact_caching = jsonfile\n');
  const cfg = join(p.dir, 'ansible.cfg');
  const r = p.run(['config'], { ANSIBLE_TIMEOUT: '33' });
  t.is(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  t.is(lines[0], `config file: ${cfg}`);
  t.deepEqual(
    lines.filter((l) => /^(forks|timeout|become) /.test(l)).map((l) => l.split(/\s{2,}/)),
    [
      ['forks', '7', `${cfg}:2`],
      ['timeout', '33', 'ANSIBLE_TIMEOUT'],
      ['become', 'false', 'default'],
    ],
  );
  t.is(r.stderr, `play: warning: ${cfg}: settings play does not honour (ignored): [defaults] fact_caching (line 3)\n`);
  const json = JSON.parse(p.run(['config', '--json']).stdout);
  t.deepEqual(
    [json.configFile, json.settings.forks, json.settings.remote_user],
    [cfg, { value: 7, origin: `${cfg}:2` }, { value: null, origin: 'default' }],
  );
});

test('./ansible.cfg in a world-writable folder is ignored, with a warning naming it', (t) => {
  const p = project(t, '[defaults]\nforks = 7\n');
  chmodSync(p.dir, 0o777);
  const r = p.run(['config']);
  t.is(r.code, 0, r.stderr);
  t.is(r.stdout.split('\n')[0], 'config file: none');
  t.regex(r.stderr, /^play: warning: \S+\/ansible\.cfg is ignored: the directory \S+ is world-writable/);
});

test('bad input: one line naming the file and line (or the variable), exit 65 or 64, no trace', (t) => {
  const cases: [string, string, NodeJS.ProcessEnv, number, RegExp][] = [
    ['a broken file', 'forks = 3\n', {}, 65, /^play: \S+\/ansible\.cfg:1: a setting before any \[section\] header/],
    [
      'a missing inventory',
      '[defaults]\ninventory = nowhere.yaml\n',
      {},
      65,
      /^play: inventory \S+\/nowhere\.yaml does not exist \(from ansible\.cfg \S+:2: fix its \[defaults\] inventory, or pass -i\)\n$/,
    ],
    ['a bad ANSIBLE_FORKS', '', { ANSIBLE_FORKS: 'lots' }, 65, /^play: ANSIBLE_FORKS: 'lots' is not a whole number\n$/],
    [
      'a missing ANSIBLE_INVENTORY',
      '',
      { ANSIBLE_INVENTORY: 'gone' },
      64,
      /^play: inventory \S+\/gone does not exist \(from ANSIBLE_INVENTORY\)\n$/,
    ],
  ];
  for (const [name, cfg, env, code, message] of cases) {
    const p = project(t, cfg);
    const r = p.run(['hosts', 'all'], env);
    t.is(r.code, code, name);
    t.regex(r.stderr, message, name);
  }
});
