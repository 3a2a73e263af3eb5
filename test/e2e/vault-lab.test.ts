// tor-gateway in the lab with the VRRP password in a vault-encrypted group_vars/tor.yml (made by Debian's
// ansible-vault), as an Ansible user keeps it: refused without the vault password (exit 65, nothing
// touched); with --vault-password-file, the plan and the apply over real SSH, keepalived configured with
// the decrypted password, which never shows in play's output or report; a second run changes nothing.
// The tor hosts are shared: held with the tor-hosts lock (fixtures/lab-locks.ts) from the first test to
// the last, keepalived stopped before and after.
import test from 'ava';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ensureLab, type Lab, onLabHost } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { VRRP_SETTLE_MS } from '../helpers/vrrp.js';
import { waitFor } from '../helpers/wait.js';
import { encryptFile } from '../inventory/ansible-oracle.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { stopKeepalived, torAddresses, TORS } from './fixtures/tor-hosts.js';

/** keepalived uses 8 characters of auth_pass: this one is whole. */
const VRRP_PASS = 'Vlt8pass';
const VIP = '198.19.21.1';
const CONF = '/etc/keepalived/keepalived.conf';

let lab: Lab;
let dir: string;
let inventory: string;
let passwordFile: string;
let release: (() => Promise<void>) | undefined;

test.before(async (t) => {
  release = await holdTorHosts();
  lab = await ensureLab({ tor: 3 });
  await stopKeepalived(lab, t);
  await Promise.all(TORS.map((tor) => onLabHost(lab, tor, `rm -f ${CONF} /etc/sysctl.d/90-tor-gateway.conf`)));
  dir = mkdtempSync(join(tmpdir(), 'play-vault-lab-'));
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, readFileSync(lab.knownHostsPath));
  const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  inv.all.vars.ansible_ssh_common_args = `-o UserKnownHostsFile=${knownHosts}`;
  inv.all.children.windows = { hosts: { win1: { ansible_host: '198.18.1.1', pod_cidr: '198.19.21.0/24' } } };
  delete inv.all.children.control;
  // The password leaves the inventory for the vault file; the tor group's other vars stay in plain text.
  delete inv.all.children.tor.vars.vrrp_auth_pass;
  inventory = join(dir, 'inventory.yaml');
  writeFileSync(inventory, YAML.stringify(inv));
  mkdirSync(join(dir, 'group_vars'));
  writeFileSync(join(dir, 'group_vars/tor.yml'), `vrrp_auth_pass: ${VRRP_PASS}\n`);
  passwordFile = join(dir, 'vault-pass');
  writeFileSync(passwordFile, 'lab vault password\n');
  encryptFile(join(dir, 'group_vars/tor.yml'), passwordFile);
});

test.after.always(async (t) => {
  try {
    if (lab) await stopKeepalived(lab, t);
    if (dir) rmSync(dir, { recursive: true, force: true });
  } finally {
    await release?.();
  }
});

/** tor-gateway on the test inventory, without VRRP_AUTH_PASS in its environment. */
const torGateway = (args: string[]) => play(['tor-gateway', '-i', inventory, ...args], { VRRP_AUTH_PASS: '' });

test.serial('without the vault password: exit 65 naming the file and the flags, no host touched', async (t) => {
  const r = await torGateway([]);
  t.is(r.code, 65, r.stdout + r.stderr);
  t.regex(
    r.stderr,
    /group_vars\/tor\.yml: is encrypted with ansible-vault, and no vault password was given: pass --vault-password-file FILE/,
  );
  for (const tor of TORS) t.is((await onLabHost(lab, tor, `test -e ${CONF} && echo yes || echo no`)).trim(), 'no', tor);
});

test.serial('--check --diff with --vault-password-file: the plan, the password nowhere in it', async (t) => {
  const r = await torGateway(['--vault-password-file', passwordFile, '--check', '--diff', '--json']);
  t.is(r.code, 2, r.stderr);
  const report = JSON.parse(r.stdout);
  for (const tor of TORS)
    t.like(
      report.hosts[tor].steps.find((s: { task: string }) => s.task === 'config'),
      { status: 'changed' },
    );
  t.false((r.stdout + r.stderr).includes(VRRP_PASS), 'masked in the report, the diff and the log');
});

test.serial(
  'apply: keepalived configured with the decrypted password on every tor host; then nothing to change',
  async (t) => {
    const r = await torGateway(['--vault-password-file', passwordFile, '--json']);
    t.is(r.code, 0, r.stderr);
    t.false((r.stdout + r.stderr).includes(VRRP_PASS));
    for (const tor of TORS) {
      const conf = await onLabHost(lab, tor, `cat ${CONF}`);
      t.true(conf.includes(`auth_pass ${VRRP_PASS}\n`), `${tor}: auth_pass from the vault`);
    }
    await waitFor(
      'the VIP on exactly one tor host',
      async () => (await Promise.all(TORS.map(torAddresses))).filter((a) => a.includes(` ${VIP}/`)).length === 1,
      VRRP_SETTLE_MS,
    );
    const again = await torGateway(['--vault-password-file', passwordFile, '--json']);
    t.is(again.code, 0, again.stderr);
    t.is(JSON.parse(again.stdout).summary.changed, 0);
  },
);
