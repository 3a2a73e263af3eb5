// The Windows step `play init` writes (templates/init/playbooks/lib/registry-value.ts), proven here as a
// user would run it: the scaffold written by the real CLI into a scratch folder, and its own three-run
// test (test/registry-value.test.ts, built on `openRemote` and `threeRuns` from 'play') run by ava in
// that folder against a simulated Windows node over SSH, named as a user names a real host
// (PLAY_TEST_WINDOWS_HOST, PLAY_TEST_INVENTORY). Without a host named, that test is a todo, not a pass.
// The scratch folder's node_modules link play, ava and tsx to this checkout's: no npm install here
// (own-repo.test.ts installs a scaffold from the registry).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { getValue } from '../../lab/windows/registry-store.js';
import { play, projectRoot } from '../helpers/play.js';
import { PASSWORD_ENV, startWindowsNode } from '../helpers/simulated-windows-node.js';

let home: string;
let repo: string;

test.before(async () => {
  home = mkdtempSync(join(tmpdir(), 'play-init-windows-'));
  repo = join(home, 'infra');
  const init = await play(['init', 'infra'], {}, home);
  if (init.code !== 0) throw new Error(`play init: ${init.stderr}`);
  mkdirSync(join(repo, 'node_modules'));
  symlinkSync(projectRoot, join(repo, 'node_modules', 'play'));
  for (const name of ['ava', 'tsx'])
    symlinkSync(resolve(projectRoot, 'node_modules', name), join(repo, 'node_modules', name));
});

test.after.always(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

/** The scaffold's own tests (`npm test`'s ava), in the scaffold's folder. */
function scaffoldTests(env: NodeJS.ProcessEnv): Promise<{ code: number; out: string }> {
  const ava = resolve(projectRoot, 'node_modules/ava/entrypoints/cli.mjs');
  return new Promise((done) => {
    // A long inactivity limit: on a busy machine loading TypeScript alone can outlast ava's default 10 s.
    const child = spawn(process.execPath, [ava, '--timeout=3m'], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: 'pipe',
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => done({ code: code ?? -1, out }));
  });
}

test.serial('without a Windows host named: the plan tests pass, the three runs are a todo', async (t) => {
  const r = await scaffoldTests({ PLAY_TEST_WINDOWS_HOST: '' });
  t.is(r.code, 0, r.out);
  t.regex(r.out, /3 tests passed/);
  t.regex(r.out, /1 test todo/);
});

test.serial("the scaffold's three-run test against a simulated Windows node over SSH", async (t) => {
  const node = await startWindowsNode(t);
  // The node's key in known_hosts, as a user's `ssh` to the host once records it.
  const key = execFileSync('ssh-keygen', ['-y', '-f', join(node.dir, 'ssh_host_ed25519_key')], { encoding: 'utf8' });
  writeFileSync(node.knownHosts, `[127.0.0.1]:${node.sim.port} ${key}`);
  const inventory = join(home, 'windows.yml');
  const connection = {
    ansible_host: '127.0.0.1',
    ansible_port: node.sim.port,
    ansible_user: 'Administrator',
    ansible_shell_type: 'powershell',
    ansible_password: `{{ lookup('env', '${PASSWORD_ENV}') }}`,
    play_known_hosts: node.knownHosts,
  };
  writeFileSync(inventory, YAML.stringify({ all: { children: { windows: { hosts: { [node.name]: connection } } } } }));
  const before = node.snapshot();
  const r = await scaffoldTests({ PLAY_TEST_WINDOWS_HOST: node.name, PLAY_TEST_INVENTORY: inventory });
  t.is(r.code, 0, r.out);
  t.regex(r.out, /4 tests passed/);
  t.regex(r.out, new RegExp(`registry value on ${node.name}: check reports the change`));
  t.not(node.snapshot(), before);
  t.regex(getValue(node.state, 'HKLM:\\SOFTWARE\\Example\\PlayTest', 'Mode')?.data as string, /^set by a test at /);
  // A second time: a new value, so its check again has a change to report, and again converges.
  const again = await scaffoldTests({ PLAY_TEST_WINDOWS_HOST: node.name, PLAY_TEST_INVENTORY: inventory });
  t.is(again.code, 0, again.out);
  t.regex(again.out, /4 tests passed/);
});

test.serial('the scaffold names its Windows step in the example playbook, on group windows', (t) => {
  const example = readFileSync(join(repo, 'playbooks/example.ts'), 'utf8');
  t.regex(example, /winPort: \{\n {6}on: 'windows',\n {6}step: \(\{ host \}\) =>\n {8}registryValue\(/);
});
