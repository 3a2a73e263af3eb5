// The acceptance, end to end: a folder with an ansible.cfg whose [defaults] inventory names an
// inventory of lab Linux hosts known only by their ssh_config aliases (as ssh-config.test.ts builds it),
// run from that folder with no -i, as a user types it: the plan, the run converging, nothing left to do;
// and every header names the inventory and the ansible.cfg it came from.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureLab, onLabHost, type Lab } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ linux: 2 });
});

const PLAYBOOK = resolve(projectRoot, 'test/e2e/playbooks/files.ts');
const HOSTS = ['linux1', 'linux2'];
/** Output without the time of day the first line carries without a terminal. */
const unstamped = (text: string) => text.replace(/^\d\d:\d\d:\d\d /, '');

/** HOME with ~/.ssh/config for the aliases, and a project folder: ansible.cfg, inventory/hosts.yaml. */
function project(t: import('ava').ExecutionContext) {
  const root = mkdtempSync(join(tmpdir(), 'play-ansible-cfg-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const home = join(root, 'home');
  const dir = join(root, 'project');
  mkdirSync(join(home, '.ssh'), { recursive: true, mode: 0o700 });
  mkdirSync(join(dir, 'inventory'), { recursive: true, mode: 0o755 });
  const aliases = HOSTS.map(
    (h) =>
      `Host lab-${h}\n  HostName ${lab.host(h).address}\n  User root\n  IdentityFile ${lab.keyPath}\n` +
      `  IdentitiesOnly yes\n  UserKnownHostsFile ${lab.knownHostsPath}\n`,
  );
  writeFileSync(join(home, '.ssh', 'config'), aliases.join(''), { mode: 0o600 });
  const hosts = HOSTS.map((h) => `        lab-${h}: {}\n`).join('');
  writeFileSync(join(dir, 'inventory', 'hosts.yaml'), `all:\n  children:\n    linux:\n      hosts:\n${hosts}`);
  writeFileSync(join(dir, 'ansible.cfg'), '[defaults]\ninventory = inventory/hosts.yaml\nforks = 2\n');
  return { dir, env: { HOME: home, SSH_AUTH_SOCK: '', PLAY_INVENTORY: '' } };
}

test('no -i in a folder with an ansible.cfg: its inventory is planned, converged, then unchanged', async (t) => {
  const p = project(t);
  const dir = scratch('ansible-cfg');
  t.teardown(() => Promise.all(HOSTS.map((h) => onLabHost(lab, h, `rm -rf ${dir}`))).then(() => undefined));
  const header = `inventory: ${join(p.dir, 'inventory', 'hosts.yaml')} (from ansible.cfg ${join(p.dir, 'ansible.cfg')})\n`;

  const plan = await play([PLAYBOOK, '--check', '-e', `dir=${dir}`, '--no-live'], p.env, p.dir);
  t.is(plan.code, 2, plan.stderr);
  t.true(unstamped(plan.stdout).startsWith(header), plan.stdout);
  t.is(plan.stderr, '');

  const run = async () => {
    const r = await play([PLAYBOOK, '-e', `dir=${dir}`, '--json'], p.env, p.dir);
    t.is(r.code, 0, r.stderr);
    t.true(unstamped(r.stderr).startsWith(header), 'with --json the header is on stderr');
    return JSON.parse(r.stdout).summary;
  };
  t.like(await run(), { ok: 0, changed: 2, failed: 0, unreachable: 0 });
  t.like(await run(), { ok: 2, changed: 0, failed: 0, unreachable: 0 });
  for (const host of HOSTS) t.is(await onLabHost(lab, host, `cat ${dir}/note`), `hello from lab-${host}\n`);
});

test('-i beats ansible.cfg, and the header says so', async (t) => {
  const p = project(t);
  writeFileSync(join(p.dir, 'one.yaml'), 'all:\n  children:\n    linux:\n      hosts:\n        lab-linux1: {}\n');
  const dir = scratch('ansible-cfg');
  const r = await play([PLAYBOOK, '--check', '-i', 'one.yaml', '-e', `dir=${dir}`, '--no-live'], p.env, p.dir);
  t.is(r.code, 2, r.stderr);
  // Stamped with the time of day, as every line of the view without a terminal.
  t.true(unstamped(r.stdout).startsWith(`inventory: ${join(p.dir, 'one.yaml')} (from -i)\n`), r.stdout);
  t.notRegex(r.stdout, /lab-linux2/);
});
