// The operator's OpenSSH client configuration, end to end: an inventory that names the lab's Linux hosts
// only by ssh_config aliases (no ansible_host, user or key in it) runs a playbook through `play` as a
// user types it, with HOME set to a temporary directory whose ~/.ssh/config (and a file it includes)
// supplies HostName, Port, User, IdentityFile and UserKnownHostsFile. The real ~/.ssh is not touched.
import test from 'ava';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const INVENTORY = `all:\n  children:\n    linux:\n      hosts:\n${HOSTS.map((h) => `        lab-${h}: {}\n`).join('')}`;

/** A HOME with .ssh/config (and conf.d/lab.conf, which it includes) for the lab's hosts, and the inventory. */
function home(
  t: import('ava').ExecutionContext,
  o: { key?: string; knownHosts?: string; strict?: string; config?: boolean } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'play-ssh-home-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, '.ssh', 'conf.d'), { recursive: true, mode: 0o700 });
  if (o.config !== false) {
    const config = [
      'Include conf.d/*.conf',
      '',
      'Host lab-*',
      '  User root',
      `  IdentityFile ${o.key ?? lab.keyPath}`,
      '  IdentitiesOnly yes',
      `  UserKnownHostsFile ${o.knownHosts ?? lab.knownHostsPath}`,
      `  StrictHostKeyChecking ${o.strict ?? 'yes'}`,
      '',
    ].join('\n');
    writeFileSync(join(dir, '.ssh', 'config'), config, { mode: 0o600 });
    const hosts = HOSTS.map((h) => `Host lab-${h}\n  HostName ${lab.host(h).address}\n  Port 22\n`).join('');
    writeFileSync(join(dir, '.ssh', 'conf.d', 'lab.conf'), hosts, { mode: 0o600 });
  }
  const inventory = join(dir, 'inventory.yaml');
  writeFileSync(inventory, INVENTORY);
  return { dir, inventory };
}

const cleanUp = (path: string) =>
  Promise.all(HOSTS.map((h) => onLabHost(lab, h, `rm -rf ${path}`))).then(() => undefined);

test('hosts named only by their ssh_config aliases: a playbook converges, then changes nothing', async (t) => {
  const h = home(t);
  const dir = scratch('ssh-config');
  t.teardown(() => cleanUp(dir));
  const run = async () => {
    const r = await play([PLAYBOOK, '-i', h.inventory, '-e', `dir=${dir}`, '--json'], {
      HOME: h.dir,
      SSH_AUTH_SOCK: '',
    });
    t.is(r.code, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    t.deepEqual(
      warnings.filter((l) => l.includes(h.dir)),
      [],
      "nothing to warn about in the user's config",
    );
    return JSON.parse(r.stdout).summary;
  };
  t.like(await run(), { ok: 0, changed: 2, failed: 0, unreachable: 0 });
  t.like(await run(), { ok: 2, changed: 0, failed: 0, unreachable: 0 });
  for (const host of HOSTS) t.is(await onLabHost(lab, host, `cat ${dir}/note`), `hello from lab-${host}\n`);

  // Without the config (and the lab's key given in the inventory), the aliases are not host names.
  const bare = home(t, { config: false });
  writeFileSync(
    bare.inventory,
    `all:\n  vars:\n    ansible_ssh_private_key_file: ${lab.keyPath}\n${INVENTORY.slice(5)}`,
  );
  const r = await play([PLAYBOOK, '-i', bare.inventory, '-e', `dir=${dir}`], { HOME: bare.dir, SSH_AUTH_SOCK: '' });
  t.is(r.code, 4, r.stderr);
  t.regex(r.stdout, /lab-linux1 +unreachable .*cannot resolve lab-linux1/);
});

test("StrictHostKeyChecking accept-new in the config records the hosts' keys in its UserKnownHostsFile", async (t) => {
  const knownHosts = join(mkdtempSync(join(tmpdir(), 'play-ssh-kh-')), 'known_hosts');
  t.teardown(() => rmSync(resolve(knownHosts, '..'), { recursive: true, force: true }));
  writeFileSync(knownHosts, '');
  const strict = home(t, { knownHosts });
  const refused = await play([PLAYBOOK, '-C', '-i', strict.inventory, '-e', `dir=${scratch('ssh-config')}`], {
    HOME: strict.dir,
    SSH_AUTH_SOCK: '',
  });
  t.is(refused.code, 4, refused.stderr);
  t.regex(refused.stdout, /lab-linux1 +unreachable .*host key not known/);

  const h = home(t, { knownHosts, strict: 'accept-new' });
  const r = await play([PLAYBOOK, '-C', '-i', h.inventory, '-e', `dir=${scratch('ssh-config')}`], {
    HOME: h.dir,
    SSH_AUTH_SOCK: '',
  });
  t.is(r.code, 2, r.stderr);
  const recorded = readFileSync(knownHosts, 'utf8').trim().split('\n');
  t.is(recorded.length, 2);
  for (const host of HOSTS)
    t.true(
      recorded.some((l) => l.startsWith(`${lab.host(host).address} `)),
      recorded.join('\n'),
    );
});

test('a private key that others may read is refused before any host is touched (exit 65, naming the fix)', async (t) => {
  const keys = mkdtempSync(join(tmpdir(), 'play-ssh-key-'));
  t.teardown(() => rmSync(keys, { recursive: true, force: true }));
  const key = join(keys, 'id_ed25519');
  copyFileSync(lab.keyPath, key);
  chmodSync(key, 0o644);
  const h = home(t, { key });
  const r = await play([PLAYBOOK, '-i', h.inventory, '-e', `dir=${scratch('ssh-config')}`], {
    HOME: h.dir,
    SSH_AUTH_SOCK: '',
  });
  t.is(r.code, 65, r.stderr);
  t.regex(
    r.stderr,
    new RegExp(
      `host lab-linux1: IdentityFile ${key} \\(${h.dir}/\\.ssh/config:5\\): is an UNPROTECTED PRIVATE KEY FILE: mode 0644 .*chmod 600 ${key} \\(also for lab-linux2\\)`,
    ),
  );
  t.notRegex(r.stderr, /\n\s+at /, 'no stack trace');
});
