// Ansible's become variables as play reads them, rows compared whole: the become spec of a host, or
// the one error naming the variable (and the file and line) when play cannot honour it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { InventoryError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';

const dir = mkdtempSync(join(tmpdir(), 'play-become-inv-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** One host `h` with these vars (YAML flow values), loaded: its become spec, or the error text. */
function becomeOf(vars: Record<string, string>): unknown {
  const file = join(dir, `${Object.keys(vars).join('-') || 'none'}-${Math.random().toString(36).slice(2)}.yml`);
  const lines = Object.entries(vars).map(([k, v]) => `      ${k}: ${v}`);
  writeFileSync(file, ['all:', '  hosts:', '    h:', '      ansible_host: 10.0.0.1', ...lines, ''].join('\n'));
  try {
    return loadInventory(file).host('h')!.connection.become ?? null;
  } catch (e) {
    if (!(e instanceof InventoryError)) throw e;
    return e.message.slice(file.length);
  }
}

const rows: [string, Record<string, string>, unknown][] = [
  ['no become', {}, null],
  ['become: true, sudo to root by default', { ansible_become: 'true' }, { method: 'sudo', user: 'root' }],
  ["Ansible's booleans: yes", { ansible_become: 'yes' }, { method: 'sudo', user: 'root' }],
  ["Ansible's booleans: 'on' as a string", { ansible_become: "'on'" }, { method: 'sudo', user: 'root' }],
  ['become: false', { ansible_become: 'false' }, null],
  ["become: 'no'", { ansible_become: "'no'" }, null],
  [
    'another user, the method named in full',
    { ansible_become: 'true', ansible_become_user: 'postgres', ansible_become_method: 'ansible.builtin.sudo' },
    { method: 'sudo', user: 'postgres' },
  ],
  ['a user and a method without become: nothing', { ansible_become_user: 'postgres' }, null],
  [
    'not a boolean',
    { ansible_become: 'maybe' },
    ":5: at all.hosts.h.ansible_become: ansible_become must be a boolean (true/false, yes/no), got a string ('maybe')",
  ],
  [
    'su is not supported',
    { ansible_become: 'true', ansible_become_method: 'su' },
    ':6: at all.hosts.h.ansible_become_method: ansible_become_method: su is not supported yet: play becomes with sudo only',
  ],
  [
    'flags are refused, not ignored',
    { ansible_become: 'true', ansible_become_flags: "'-H -S -E'" },
    ':6: at all.hosts.h.ansible_become_flags: ansible_become_flags is not supported yet: play runs `sudo -H -u USER` (with -n, or -S and the password on stdin); remove it',
  ],
  [
    'a user name sudo would split',
    { ansible_become: 'true', ansible_become_user: "'root; id'" },
    ":6: at all.hosts.h.ansible_become_user: ansible_become_user must be a user name, got a string ('root; id')",
  ],
  [
    'a Windows host',
    { ansible_become: 'true', ansible_shell_type: 'powershell' },
    ':5: at all.hosts.h.ansible_become: host h: ansible_become is not supported on a Windows host: play runs PowerShell as ansible_user (become_method runas is not supported yet); connect as a user with the rights the steps need',
  ],
];

for (const [name, vars, expected] of rows) {
  test(`become: ${name}`, (t) => {
    t.deepEqual(becomeOf(vars), expected);
  });
}
