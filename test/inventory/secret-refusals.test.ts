// Secrets from an inventory: a literal value of a secret-named variable is refused (secret-names.ts,
// beyond Ansible's own password variables), and a value from the environment too short to be masked in
// output is refused when it is read, naming the host, the variable and the environment variable.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import { loadInventory, resolveSecrets, resolveVars } from '../../runner/inventory/load.js';

const INVENTORY = `all:
  hosts:
    tor1:
      ansible_password: "{{ lookup('env', 'PLAY_T_SHORT_PW') }}"
      vrrp_auth_pass: "{{ lookup('env', 'PLAY_T_SHORT_VRRP') }}"
`;

function inventoryFile(t: import('ava').ExecutionContext, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-secret-refusals-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'hosts.yaml'), text);
  return join(dir, 'hosts.yaml');
}

test('a secret under 4 characters is refused when read: connection password and variable alike (exit 65)', (t) => {
  const file = inventoryFile(t, INVENTORY);
  const tor1 = loadInventory(file).host('tor1')!;
  const pw = t.throws(() => resolveSecrets(tor1, { PLAY_T_SHORT_PW: 'abc' }), { instanceOf: InventoryError });
  t.is(
    pw.message,
    `${file}: host tor1: ansible_password comes from environment variable PLAY_T_SHORT_PW, whose value is 3 characters long: ` +
      'a secret needs at least 4, or play could not mask it in output: set a longer one',
  );
  t.is(pw.exitCode, 65);
  const vrrp = t.throws(() => resolveVars(tor1, { PLAY_T_SHORT_PW: 'long-enough', PLAY_T_SHORT_VRRP: 'x' }), {
    instanceOf: InventoryError,
  });
  t.regex(
    vrrp.message,
    /host tor1: vrrp_auth_pass comes from environment variable PLAY_T_SHORT_VRRP, whose value is 1 character long/,
  );
  t.false(vrrp.message.includes("'x'"));
  const four = resolveVars(tor1, { PLAY_T_SHORT_PW: 'abcd', PLAY_T_SHORT_VRRP: 'wxyz' });
  t.true(four.vrrp_auth_pass instanceof Secret, 'four characters are enough');
});

test('a literal value of any secret-named variable is refused, not only ansible_password', (t) => {
  const file = inventoryFile(
    t,
    'all:\n  hosts:\n    tor1:\n      vrrp_auth_pass: hunter22\n      api_token: t0k3n-value\n',
  );
  const e = t.throws(() => loadInventory(file), { instanceOf: InventoryError });
  t.regex(e.message, /vrrp_auth_pass is written as a literal value; passwords never go in the inventory/);
  t.regex(e.message, /api_token is written as a literal value/);
  t.false(e.message.includes('hunter22') || e.message.includes('t0k3n-value'));
  t.notThrows(() => loadInventory(inventoryFile(t, 'all:\n  hosts:\n    tor1:\n      secret_name: kube-certs\n')));
});
