// The command's connection settings (-u, --private-key, -b, --become-user, --become-method, -k, -K) and
// ansible.cfg's, stacked as Ansible stacks them: flags over ansible.cfg, the inventory's variables over
// both, and -u over ssh_config's User. Vault-held passwords in the inventory are accepted (Secrets), a
// literal one stays refused. Tables compared whole.
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import {
  type ConnectionSettings,
  connectionDefaults,
  loginUser,
  mergeLayers,
  unbecomeWarning,
} from '../../runner/inventory/connection-defaults.js';
import { loadInventory, resolveSecrets } from '../../runner/inventory/load.js';
import { EnvRef } from '../../runner/inventory/model.js';
import { SshConfig } from '../../runner/ssh-config/config.js';
import { openVault } from '../../runner/vault/passwords.js';
import { encryptStrings, vaultYaml } from './ansible-oracle.js';

const ask = new Secret('typed-ssh-pass', '--ask-pass');
const askBecome = new Secret('typed-sudo-pass', '--ask-become-pass');

const FLAGS: ConnectionSettings = {
  remoteUser: { value: 'bob', origin: '-u' },
  privateKeyFile: { value: '/flags/key', origin: '--private-key' },
  become: { value: true, origin: '-b' },
  becomeUser: { value: 'eve', origin: '--become-user' },
  password: { value: ask, origin: '--ask-pass' },
  becomePassword: { value: askBecome, origin: '--ask-become-pass' },
};
const CONFIG = {
  remoteUser: { value: 'cfg-user', origin: '/etc/ansible/ansible.cfg:3' },
  privateKeyFile: { value: '/cfg/key', origin: 'ANSIBLE_PRIVATE_KEY_FILE' },
  become: { value: false, origin: '/etc/ansible/ansible.cfg:5' },
  becomeMethod: { value: 'sudo', origin: 'ANSIBLE_BECOME_METHOD' },
  // The default of ansible_ssh_args (config-ssh-args.ts): no flag sets it.
  sshArgs: { value: '-C', origin: '/etc/ansible/ansible.cfg:9' },
  // What ansible.cfg gives besides: not a connection default of the merge.
  hostKeyChecking: { value: false, origin: '/etc/ansible/ansible.cfg:9' },
};

test('connectionDefaults: the flags over ansible.cfg, field by field; only the connection fields of the config', (t) => {
  const rows: [string, ConnectionSettings, typeof CONFIG | undefined][] = [
    ['no flag, no config', {}, undefined],
    ['flags alone', FLAGS, undefined],
    ['config alone', {}, CONFIG],
    ['both', FLAGS, CONFIG],
    ['-u alone over the config', { remoteUser: FLAGS.remoteUser! }, CONFIG],
  ];
  t.deepEqual(
    rows.map(([name, flags, config]) => [name, connectionDefaults(flags, config)]),
    [
      ['no flag, no config', {}],
      ['flags alone', FLAGS],
      [
        'config alone',
        {
          remoteUser: CONFIG.remoteUser,
          privateKeyFile: CONFIG.privateKeyFile,
          become: CONFIG.become,
          becomeMethod: CONFIG.becomeMethod,
          sshArgs: CONFIG.sshArgs,
        },
      ],
      ['both', { ...FLAGS, becomeMethod: CONFIG.becomeMethod, sshArgs: CONFIG.sshArgs }],
      [
        '-u alone over the config',
        {
          remoteUser: FLAGS.remoteUser,
          privateKeyFile: CONFIG.privateKeyFile,
          become: CONFIG.become,
          becomeMethod: CONFIG.becomeMethod,
          sshArgs: CONFIG.sshArgs,
        },
      ],
    ],
  );
});

test('mergeLayers and loginUser: the first layer that sets a field wins; then ssh_config, then the current user', (t) => {
  const host: ConnectionSettings = { remoteUser: { value: 'alice', origin: 'ansible_user' } };
  const sshUser = { value: 'dave', origin: '/home/me/.ssh/config:2' };
  t.deepEqual(
    [
      loginUser(mergeLayers(host, FLAGS), sshUser, 'me'),
      loginUser(mergeLayers({}, FLAGS), sshUser, 'me'),
      loginUser(mergeLayers({}, {}), sshUser, 'me'),
      loginUser(mergeLayers({}, {}), undefined, 'me'),
      loginUser(mergeLayers({}, {}), undefined, undefined),
    ],
    [
      { value: 'alice', origin: 'ansible_user' },
      { value: 'bob', origin: '-u' },
      sshUser,
      { value: 'me', origin: 'the current user' },
      undefined,
    ],
  );
});

/** Writes an inventory with one host per precedence case (and a ssh_config), loads it with `defaults`. */
function precedenceInventory(t: { teardown(f: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'play-conn-defaults-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'pass'), 'vault-pw-1\n');
  const vaulted = encryptStrings({ ansible_become_password: 'sudo-from-vault' }, join(dir, 'pass'));
  writeFileSync(
    join(dir, 'hosts.yml'),
    [
      'all:',
      '  hosts:',
      '    bare:',
      '    own:',
      '      ansible_user: alice',
      '      ansible_ssh_private_key_file: keys/own',
      '      ansible_become: false',
      '    becomes:',
      '      ansible_become: yes',
      '      ansible_become_user: carol',
      `      ansible_password: "{{ lookup('env', 'OWN_SSH_PASS') }}"`,
      '    vaulted:',
      `      ansible_become_password: ${vaultYaml(vaulted.ansible_become_password!, 8)}`,
      '    in-ssh-config:',
      '    win:',
      '      ansible_shell_type: powershell',
      '',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'ssh'));
  writeFileSync(join(dir, 'ssh/config'), 'Host in-ssh-config\n  User dave\n');
  const sshConfig = new SshConfig({
    home: dir,
    files: [{ path: join(dir, 'ssh/config'), userConf: true, checkPerm: false }],
  });
  return async (connectionDefaults: ConnectionSettings) => {
    const vault = await openVault({ passwordFiles: [join(dir, 'pass')] }, {});
    const inv = loadInventory(join(dir, 'hosts.yml'), { vault, sshConfig, connectionDefaults });
    const from = (p: EnvRef | Secret | undefined) => (p instanceof EnvRef ? `env:${p.envVar}` : p?.source);
    const rows = inv.hosts.map((h) => {
      const c = h.connection;
      const keyFile = c.keyFile?.startsWith(dir) ? `DIR${c.keyFile.slice(dir.length)}` : c.keyFile;
      const become = c.become ? c.become.user : 'no';
      return [h.name, c.user, keyFile, c.keyFrom, become, from(c.password), from(c.becomePassword)];
    });
    return { rows, warnings: inv.warnings, inv };
  };
}

test("the inventory's variables over the flags, the flags over ssh_config's User; -b not on Windows hosts", async (t) => {
  const load = precedenceInventory(t);
  const me = userInfo().username;
  const without = await load({});
  t.deepEqual(without.rows, [
    ['bare', me, undefined, undefined, 'no', undefined, undefined],
    ['own', 'alice', 'DIR/keys/own', 'ansible_ssh_private_key_file', 'no', undefined, undefined],
    ['becomes', me, undefined, undefined, 'carol', 'env:OWN_SSH_PASS', undefined],
    ['vaulted', me, undefined, undefined, 'no', undefined, `vault:${join(without.inv.file)}`],
    ['in-ssh-config', 'dave', undefined, undefined, 'no', undefined, undefined],
    ['win', me, undefined, undefined, 'no', undefined, undefined],
  ]);
  const withFlags = await load(connectionDefaults(FLAGS, CONFIG));
  t.deepEqual(withFlags.rows, [
    ['bare', 'bob', '/flags/key', '--private-key', 'eve', '--ask-pass', '--ask-become-pass'],
    ['own', 'alice', 'DIR/keys/own', 'ansible_ssh_private_key_file', 'no', '--ask-pass', '--ask-become-pass'],
    ['becomes', 'bob', '/flags/key', '--private-key', 'carol', 'env:OWN_SSH_PASS', '--ask-become-pass'],
    ['vaulted', 'bob', '/flags/key', '--private-key', 'eve', '--ask-pass', `vault:${withFlags.inv.file}`],
    ['in-ssh-config', 'bob', '/flags/key', '--private-key', 'eve', '--ask-pass', '--ask-become-pass'],
    ['win', 'bob', '/flags/key', '--private-key', 'no', '--ask-pass', '--ask-become-pass'],
  ]);
  t.deepEqual(withFlags.warnings, [
    `${withFlags.inv.file}: -b does not apply to the Windows host win: play runs PowerShell there as ansible_user (become on Windows is not supported)`,
  ]);
  // The vault's password is the decrypted text, as a Secret; resolveSecrets hands it on as it is.
  const vaulted = resolveSecrets(withFlags.inv.host('vaulted')!);
  t.deepEqual([vaulted.password, vaulted.becomePassword?.reveal()], [ask, 'sudo-from-vault']);
});

test('a become method other than sudo from ansible.cfg is refused for a host that becomes, naming where it was set', async (t) => {
  const load = precedenceInventory(t);
  const su = {
    become: { value: true, origin: '-b' },
    becomeMethod: { value: 'su', origin: '/etc/ansible/ansible.cfg:4' },
  };
  const e = await t.throwsAsync(load(su), { instanceOf: InventoryError });
  t.regex(
    e.message,
    /host bare: become method su \(\/etc\/ansible\/ansible\.cfg:4\) is not supported yet: play becomes with sudo only/,
  );
});

test('unbecomeWarning: only with -b, only Windows hosts whose variables leave ansible_become unset', (t) => {
  const host = (name: string, os: string, vars: Record<string, unknown> = {}) => ({ name, vars, connection: { os } });
  const hosts = [host('l1', 'linux'), host('w1', 'windows'), host('w2', 'windows', { ansible_become: false })];
  const b = { become: { value: true, origin: '-b' } };
  t.deepEqual(
    [
      unbecomeWarning(hosts, undefined),
      unbecomeWarning(hosts, { become: { value: false, origin: '-b' } }),
      unbecomeWarning(hosts, b),
      unbecomeWarning(
        Array.from({ length: 7 }, (_, i) => host(`w${i}`, 'windows')),
        { become: { value: true, origin: 'ANSIBLE_BECOME' } },
      ),
    ],
    [
      undefined,
      undefined,
      '-b does not apply to the Windows host w1: play runs PowerShell there as ansible_user (become on Windows is not supported)',
      'ANSIBLE_BECOME does not apply to the Windows hosts w0, w1, w2, w3, w4 and 2 more: play runs PowerShell there as ansible_user (become on Windows is not supported)',
    ],
  );
});

test('passwords in an inventory: a vault value or an env lookup, never literal text (the message as before)', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-conn-literal-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'hosts.yml'), 'all:\n  hosts:\n    h1:\n      ansible_become_password: hunter22\n');
  const e = t.throws(() => loadInventory(join(dir, 'hosts.yml')), { instanceOf: InventoryError });
  t.regex(
    e.message,
    /at all\.hosts\.h1\.ansible_become_password: ansible_become_password is written as a literal value; passwords never go in the inventory/,
  );
  t.false(e.message.includes('hunter22'));
});
