// ansible.cfg's [ssh_connection] ssh_args and ssh_common_args applied to hosts, end to end as a user
// types it: a folder whose ansible.cfg names the lab's key with -o IdentityFile and its known_hosts
// with -o UserKnownHostsFile, an inventory with neither, no agent and no default key in HOME. The run
// reaches the host with that key and says nothing about ssh_args; without the ansible.cfg it cannot.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';

const HOST = 'linux2';
const PLAYBOOK = resolve(projectRoot, 'test/e2e/playbooks/files.ts');
let lab: Lab;
let root: string;

test.before(async () => {
  lab = await ensureLab({ linux: 2 });
  root = mkdtempSync(join(tmpdir(), 'play-cfg-ssh-args-'));
});
test.after.always(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

function project(name: string, cfg: string | null): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = join(root, name);
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const host = `        ${HOST}: { ansible_host: ${lab.host(HOST).address}, ansible_user: root }\n`;
  writeFileSync(join(dir, 'hosts.yml'), `all:\n  children:\n    linux:\n      hosts:\n${host}`);
  if (cfg !== null) writeFileSync(join(dir, 'ansible.cfg'), cfg);
  return { dir, env: { HOME: home, SSH_AUTH_SOCK: '', PLAY_INVENTORY: '', ANSIBLE_CONFIG: '' } };
}

const CFG = () =>
  `[ssh_connection]\nssh_args = -C -o ControlMaster=auto -o ControlPersist=60s -o IdentityFile=${lab.keyPath}\n` +
  `ssh_common_args = -o UserKnownHostsFile=${lab.knownHostsPath} -o ConnectTimeout=10\n`;

test('ssh_args -o IdentityFile and ssh_common_args -o UserKnownHostsFile reach the host; no warning', async (t) => {
  const p = project('with-cfg', CFG());
  const r = await play([PLAYBOOK, '-i', 'hosts.yml', '--check', '-e', `dir=${scratch('cfg-ssh-args')}`], p.env, p.dir);
  t.is(r.code, 2, r.stdout + r.stderr);
  t.regex(r.stdout, new RegExp(`${HOST}`));
  t.is(r.stderr, '', 'every ssh_args word is applied or changes nothing: no warning');
});

test('the same folder without the ansible.cfg: no key, the host is unreachable (exit 4)', async (t) => {
  const p = project('without-cfg', null);
  const args = [PLAYBOOK, '-i', 'hosts.yml', '--check', '--known-hosts', lab.knownHostsPath, '-e', 'dir=/srv/x'];
  const r = await play(args, p.env, p.dir);
  t.is(r.code, 4, r.stdout + r.stderr);
});
