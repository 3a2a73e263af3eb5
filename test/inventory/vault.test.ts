// Inventories with ansible-vault, made at test time by Debian's ansible-vault (the oracle: without it
// these tests fail, never skip): a vault-encrypted group_vars/tor.yml (1.2, vault id prod), `!vault`
// values inline in an inventory (1.1 and 1.2) and in a plain host_vars file, a whole YAML inventory and a
// whole INI inventory encrypted. play reads the same variables as ansible-inventory and the same values
// as ansible renders them (`ansible -m debug`, vault values decrypted); every value from a vault is a
// Secret (masked when printed), a wrong password is one sentence naming the file and the vault id.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { isSecret, Secret } from '../../runner/core/secret.js';
import { hostVarsJson } from '../../runner/inventory/export.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { VaultKeyring } from '../../runner/vault/keyring.js';
import { openVault } from '../../runner/vault/passwords.js';
import {
  ansibleInventory,
  ansibleVarValues,
  encryptFile,
  encryptStrings,
  requireAnsible,
  vaultYaml,
} from './ansible-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'play-vault-inventory-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const PASS = { default: write('pass-default', 'pw-default\n'), prod: write('pass-prod', 'pw-prod\n') };
const DEV = write('pass-dev', 'pw-dev\n');
const VAULT_ARGS = [
  '--vault-password-file',
  PASS.default,
  '--vault-id',
  `prod@${PASS.prod}`,
  '--vault-id',
  `dev@${DEV}`,
];

const TOR_VARS = {
  vrrp_auth_pass: 'lab-vrrp-pass',
  vrrp_interface: 'eth1',
  vrrp_virtual_router_id: 51,
  peers: ['10.0.0.1', '10.0.0.2'],
  ansible_user: 'ops',
};
let sources: string[];
let names: string[];

test.before(() => {
  const inline = encryptStrings({ api_token: 'token-1234567' }, PASS.default);
  const dev = encryptStrings({ db_password: 'db-pass-dev' }, DEV, 'dev');
  const app = encryptStrings({ app_secret: 'app-secret-host' }, PASS.default);
  write(
    'yaml/inventory.yml',
    'all:\n  vars:\n    site_name: lab\n  children:\n    tor:\n      hosts:\n        tor1:\n        tor2:\n' +
      `    web:\n      vars:\n        api_token: ${vaultYaml(inline.api_token!, 10)}` +
      `        db:\n          user: app\n          password: ${vaultYaml(dev.db_password!, 12)}` +
      '      hosts:\n        w1:\n',
  );
  encryptFile(write('yaml/group_vars/tor.yml', JSON.stringify(TOR_VARS)), PASS.prod, 'prod');
  write('yaml/host_vars/w1.yml', `app_secret: ${vaultYaml(app.app_secret!, 2)}`);
  encryptFile(write('enc.yml', 'all:\n  hosts:\n    e1:\n      region: eu-west\n'), PASS.default);
  encryptFile(write('enc-ini', '[db]\nd1 db_port=5432 role=primary\n'), PASS.prod, 'prod');
  sources = [join(dir, 'yaml/inventory.yml'), join(dir, 'enc.yml'), join(dir, 'enc-ini')];
  names = ['site_name', 'api_token', 'db', 'app_secret', ...Object.keys(TOR_VARS), 'region', 'db_port', 'role'];
});

const keyring = () => openVault({ passwordFiles: [PASS.default], vaultIds: [`prod@${PASS.prod}`, `dev@${DEV}`] }, {});

/** Secrets revealed, so that values compare with ansible's clear text. */
function reveal(v: unknown): unknown {
  if (v instanceof Secret) return v.reveal();
  if (Array.isArray(v)) return v.map(reveal);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reveal(x)]));
  return v;
}

test('the same variables as ansible-inventory, the same values as ansible renders them', async (t) => {
  requireAnsible();
  const inv = loadInventory(sources, { vault: await keyring() });
  const listed = (await ansibleInventory(sources, ['--list', ...VAULT_ARGS])) as {
    _meta: { hostvars: Record<string, Record<string, unknown>> };
  };
  const rendered = await ansibleVarValues(sources, names, VAULT_ARGS);
  t.deepEqual(inv.hosts.map((h) => h.name).sort(), Object.keys(rendered).sort());
  for (const host of inv.hosts) {
    t.deepEqual(Object.keys(host.vars).sort(), Object.keys(listed._meta.hostvars[host.name] ?? {}).sort(), host.name);
    t.deepEqual(reveal(host.vars), rendered[host.name], host.name);
  }
  t.is(inv.host('tor1')!.vars.vrrp_auth_pass && reveal(inv.host('tor1')!.vars.vrrp_auth_pass), 'lab-vrrp-pass');
});

test('what came from a vault is a Secret, masked when printed; numbers and connection settings stay as written', async (t) => {
  const inv = loadInventory(sources, { vault: await keyring() });
  const tor = inv.host('tor1')!.vars;
  t.true(isSecret(tor.vrrp_auth_pass));
  t.true(isSecret(tor.vrrp_interface), 'a vault-encrypted file: all its text is secret');
  t.true((tor.peers as unknown[]).every(isSecret));
  t.is(tor.vrrp_virtual_router_id, 51);
  t.is(tor.ansible_user, 'ops', 'a connection setting play prints in its messages anyway');
  t.is(inv.host('tor1')!.connection.user, 'ops');
  const w1 = inv.host('w1')!.vars;
  t.true(isSecret(w1.api_token) && isSecret(w1.app_secret) && isSecret((w1.db as { password: unknown }).password));
  t.is((w1.db as { user: unknown }).user, 'app', 'beside a !vault value, plain text stays plain');
  t.true(isSecret(inv.host('e1')!.vars.region) && isSecret(inv.host('d1')!.vars.role), 'encrypted inventories');
  t.is(inv.host('d1')!.vars.db_port, 5432);
  const shown = JSON.stringify([hostVarsJson(inv.host('tor1')!), hostVarsJson(inv.host('w1')!)]);
  for (const clear of ['lab-vrrp-pass', 'token-1234567', 'db-pass-dev', 'app-secret-host', 'eth1'])
    t.false(shown.includes(clear), clear);
  t.regex(shown, /"vrrp_auth_pass":"\*\*\*\*\*\*\*\*"/);
});

test('a wrong password, or none: one sentence for each file and value it leaves encrypted, with the vault id', async (t) => {
  const wrong = await openVault({ vaultIds: [`dev@${PASS.default}`] }, {});
  const e = t.throws(() => loadInventory(sources, { vault: wrong }), { instanceOf: InventoryError });
  const lines = e.message.replaceAll(dir, 'D').split('\n');
  t.is(
    lines[0],
    `D/yaml/inventory.yml:19: at all.children.web.vars.db.password: this !vault value is encrypted with ansible-vault (vault id dev), ` +
      `and the vault password given (--vault-id dev@D/pass-default) does not decrypt it: a wrong password, or the file ` +
      'changed since it was encrypted',
  );
  t.true(
    lines.includes(
      `  also: D/yaml/group_vars/tor.yml: is encrypted with ansible-vault (vault id prod), and the vault password given ` +
        '(--vault-id dev@D/pass-default) does not decrypt it (none is labelled prod: --vault-id prod@FILE): a wrong ' +
        'password, or the file changed since it was encrypted',
    ),
    e.message,
  );
  t.is(e.exitCode, 65);
  const none = t.throws(() => loadInventory(sources, { vault: new VaultKeyring() }), { instanceOf: InventoryError });
  t.regex(none.message, /and no vault password was given: pass --vault-password-file FILE, --vault-id \[LABEL@\]FILE/);
});
