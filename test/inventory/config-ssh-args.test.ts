// ansible.cfg's ssh_args / ssh_common_args applied to hosts as the inventory's ansible_ssh_args /
// ansible_ssh_common_args are (their defaults, as in Ansible): -o User, Port, IdentityFile,
// ConnectTimeout, ServerAliveInterval, UserKnownHostsFile and ProxyJump, under the host's own vars; a
// host that sets the var replaces the config's. Tables compared whole.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectionDefaults } from '../../runner/inventory/connection-defaults.js';
import { loadInventory } from '../../runner/inventory/load.js';
import type { Inventory } from '../../runner/inventory/model.js';

const dir = mkdtempSync(join(tmpdir(), 'play-config-ssh-args-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const CFG = join(dir, 'ansible.cfg');

function load(yaml: string, config: { sshArgs?: string; sshCommonArgs?: string }): Inventory {
  const file = join(dir, `inv-${Math.random().toString(36).slice(2)}.yml`);
  writeFileSync(file, yaml);
  const settings = {
    ...(config.sshArgs ? { sshArgs: { value: config.sshArgs, origin: `${CFG}:3` } } : {}),
    ...(config.sshCommonArgs
      ? { sshCommonArgs: { value: config.sshCommonArgs, origin: 'ANSIBLE_SSH_COMMON_ARGS' } }
      : {}),
  };
  return loadInventory(file, { connectionDefaults: connectionDefaults({}, settings) });
}

const row = (inv: Inventory, name: string) => {
  const c = inv.host(name)!.connection;
  return [
    name,
    c.user,
    c.port,
    c.keyFile ?? null,
    c.keyFrom ?? null,
    c.connectTimeoutSec ?? null,
    c.serverAliveIntervalSec ?? null,
  ];
};

test('ssh_args options under the host vars; a host with its own ansible_ssh_args does not get the config one', (t) => {
  const inv = load(
    [
      'all:',
      '  hosts:',
      '    plain: { ansible_host: 198.18.0.101 }',
      '    own: { ansible_host: 198.18.0.102, ansible_user: alice, ansible_port: 2222, ansible_ssh_private_key_file: /k/own }',
      "    replaced: { ansible_host: 198.18.0.103, ansible_ssh_args: '-o Port=2300' }",
      '',
    ].join('\n'),
    {
      sshArgs: '-C -o User=cfg -o Port=2201 -o IdentityFile=keys/id -o ConnectTimeout=7 -o ServerAliveInterval=5',
    },
  );
  const from = `[ssh_connection] ssh_args (${CFG}:3)`;
  t.deepEqual(
    ['plain', 'own', 'replaced'].map((h) => row(inv, h)),
    [
      ['plain', 'cfg', 2201, join(dir, 'keys/id'), `${from} (-o IdentityFile)`, 7, 5],
      ['own', 'alice', 2222, '/k/own', 'ansible_ssh_private_key_file', 7, 5],
      ['replaced', 'root', 2300, null, null, null, null],
    ],
  );
});

test('ssh_common_args: known_hosts and a jump host as the inventory var gives them; ssh_args first for each option', (t) => {
  const inv = load(
    ['all:', '  hosts:', '    a: { ansible_host: 198.18.0.104 }', '    bastion: { ansible_host: 198.18.0.1 }', ''].join(
      '\n',
    ),
    {
      sshArgs: '-o Port=2201',
      sshCommonArgs: '-o Port=2999 -o User=ops -o UserKnownHostsFile=/k/known -o ProxyJump=bastion',
    },
  );
  const a = inv.host('a')!.connection;
  t.deepEqual(
    [a.port, a.user, a.knownHostsFile, a.jump?.hostName, a.jump?.address, a.jump?.port],
    // The hop is the inventory's bastion with its own connection: ssh's -o Port is the target's only.
    [2201, 'ops', '/k/known', 'bastion', '198.18.0.1', 22],
  );
});

test('a value ssh would refuse is an inventory error naming the config line', (t) => {
  const e = t.throws(() => load('all:\n  hosts:\n    a: {}\n', { sshArgs: '-o Port=99999' }));
  t.regex(
    e!.message,
    new RegExp(
      `${CFG.replace(/[.]/g, '\\.')}.*ansible_ssh_args: -o Port 99999: expected a port number from 1 to 65535`,
    ),
  );
});
