// What play cannot read, or reads as a mistake, in INI files, inventory directories and
// group_vars/host_vars: an error naming the file, the line and the construct, messages compared
// whole (the temporary directory shown as D/). Nothing is passed over in silence.
import test from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';

/** [title, files (path -> text), the source to load, the whole message]. */
const table: [string, Record<string, string>, string, string][] = [
  [
    'a dynamic inventory script',
    { 'inv.py': '#!/usr/bin/env python3\nprint("{}")\n' },
    'inv.py',
    'D/inv.py: is a dynamic inventory script (it starts with #!); play reads static inventories only: ' +
      'save its output with `ansible-inventory -i D/inv.py --list --yaml > inventory.yaml`',
  ],
  [
    'a vault-encrypted inventory, and no vault password given',
    { 'hosts.yml': '$ANSIBLE_VAULT;1.1;AES256\n6162\n' },
    'hosts.yml',
    'D/hosts.yml: is encrypted with ansible-vault, and no vault password was given: pass --vault-password-file FILE, ' +
      '--vault-id [LABEL@]FILE or --ask-vault-pass (or set ANSIBLE_VAULT_PASSWORD_FILE)',
  ],
  [
    'a TOML inventory',
    { 'hosts.toml': '[web]\nhosts = {}\n' },
    'hosts.toml',
    'D/hosts.toml: is a TOML inventory, which play does not read yet: convert it with ' +
      '`ansible-inventory -i D/hosts.toml --list --yaml > inventory.yaml`',
  ],
  [
    'a plugin configuration in an inventory directory',
    { 'inv/aws_ec2.yml': 'plugin: amazon.aws.aws_ec2\nregions: [eu-west-1]\n' },
    'inv',
    'D/inv/aws_ec2.yml: at plugin: this is an inventory plugin configuration; play reads static inventories ' +
      'only (YAML and INI): export this one with `ansible-inventory -i D/inv/aws_ec2.yml --list --yaml`',
  ],
  [
    'a directory with nothing ansible would read',
    { 'inv/hosts.ini': '[web]\nw1\n', 'inv/README.md': 'x' },
    'inv',
    'D/inv: is a directory with no inventory file in it (ansible skips hidden files, group_vars, host_vars, ' +
      'and names ending in .ini .cfg .md .txt .rst .bak .orig .retry .swp .pyc .pyo .rpm ~)',
  ],
  [
    'a vault-encrypted group_vars file (vault id prod), and no vault password given',
    { hosts: '[web]\nw1\n', 'group_vars/web.yml': '$ANSIBLE_VAULT;1.2;AES256;prod\n6162\n' },
    'hosts',
    'D/group_vars/web.yml: is encrypted with ansible-vault (vault id prod), and no vault password was given: pass ' +
      '--vault-password-file FILE, --vault-id [LABEL@]FILE or --ask-vault-pass (or set ANSIBLE_VAULT_PASSWORD_FILE)',
  ],
  [
    'a group_vars file that is not a mapping',
    { hosts: '[web]\nw1\n', 'group_vars/all/10.yml': '- a\n- b\n' },
    'hosts',
    'D/group_vars/all/10.yml:1: expected a mapping of variables, got a list',
  ],
  [
    'every INI mistake of a file at once, in line order',
    {
      'hosts.ini': [
        '[web:hosts]', // 1
        'w1 port', // 2
        'w2 a="open', // 3
        '[db', // 4
        '[web:vrs]', // 5
        '[ db ]', // 6
        '[dbs:vars]', // 7
        'x=1', // 8
        '[all:children]', // 9
        'ghost', // 10
        '[web:vars]', // 11
        'novalue', // 12
        'ansible_password=hunter2', // 13
        'y={1, 2}', // 14
      ].join('\n'),
    },
    'hosts.ini',
    [
      "D/hosts.ini:2: at [web]: expected key=value after the host name, got 'port'",
      '  also: D/hosts.ini:3: at [web]: cannot split the host line as ansible does (No closing quotation): w2 a="open',
      "  also: D/hosts.ini:4: at [web]: invalid host range in '[db': unbalanced brackets in '[db'",
      "  also: D/hosts.ini:5: at [web:vrs]: section [web:vrs] has an unknown type 'vrs': expected hosts, vars or children",
      '  also: D/hosts.ini:6: at [ db ]: not a valid section header: expected [group], [group:vars] or [group:children], without spaces',
      "  also: D/hosts.ini:7: [dbs:vars] sets variables of group 'dbs', which this file never defines",
      "  also: D/hosts.ini:10: [all:children] names group 'ghost', which this file never defines: add a [ghost] section",
      "  also: D/hosts.ini:12: at [web:vars]: expected key=value, got 'novalue'",
      "  also: D/hosts.ini:13: at [web:vars] ansible_password: ansible_password is written as a literal value; passwords never go in the inventory: write ansible_password: \"{{ lookup('env', 'SOME_VAR') }}\" and put the value in the environment or in .env",
      '  also: D/hosts.ini:14: at [web:vars]: y={1, 2} is a set in Python, which play cannot hold: quote it',
    ].join('\n'),
  ],
];

for (const [title, files, source, message] of table) {
  test(title, (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'play-inv-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    if (source.endsWith('.py')) chmodSync(join(dir, source), 0o755);
    const e = t.throws(() => loadInventory(join(dir, source)), { instanceOf: InventoryError });
    t.is(e.message.replaceAll(`${dir}/`, 'D/').replaceAll(dir, 'D'), message);
    t.is(e.exitCode, 65);
  });
}
