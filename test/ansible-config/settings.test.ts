// The pure core of runner/ansible-config/: ansible.cfg's text read as configparser reads it for
// Ansible, each setting typed and given its origin, ANSIBLE_* over the file; what a run takes from it.
import test from 'ava';
import { connectionSettings } from '../../runner/ansible-config/connection-settings.js';
import { parseIni } from '../../runner/ansible-config/ini.js';
import { poolDefaults } from '../../runner/ansible-config/run-settings.js';
import { type AnsibleConfig, ansibleSettings } from '../../runner/ansible-config/settings.js';
import { vaultSourcesOf } from '../../runner/ansible-config/vault-settings.js';

const CFG = '/proj/ansible.cfg';
const config = (text: string | null, env: NodeJS.ProcessEnv = {}): AnsibleConfig =>
  ansibleSettings({ env, file: text === null ? null : { path: CFG, text }, cwd: '/work', home: '/home/u' });

const DEFAULTS = {
  forks: { value: 20, origin: 'default' },
  timeout: { value: 10, origin: 'default' },
  host_key_checking: { value: true, origin: 'default' },
  become: { value: false, origin: 'default' },
  become_user: { value: 'root', origin: 'default' },
  become_method: { value: 'sudo', origin: 'default' },
  vault_identity_list: { value: [], origin: 'default' },
};

test('no file, no variables: play defaults', (t) => {
  t.deepEqual(config(null), { file: null, settings: DEFAULTS, warnings: [] });
});

test('a file: each value typed, with its line; ANSIBLE_* over the file; unhonoured keys in one warning', (t) => {
  const text = [
    '[defaults]',
    'inventory = hosts.yaml, ../shared/ ; inline comment',
    'forks: 7',
    'remote_user = deploy # kept',
    'private_key_file = ~/.ssh/id',
    'gathering = smart',
    '[privilege_escalation]',
    'become = on',
    '[ssh_connection]',
    'ssh_args = -o StrictHostKeyChecking=no',
    '  -o ServerAliveInterval=5',
    'pipelining = true',
  ].join('\n');
  t.deepEqual(config(text, { ANSIBLE_FORKS: '3', ANSIBLE_VAULT_PASSWORD_FILE: 'v.txt' }), {
    file: CFG,
    settings: {
      ...DEFAULTS,
      inventory: { value: ['/proj/hosts.yaml', '/shared'], origin: `${CFG}:2` },
      forks: { value: 3, origin: 'ANSIBLE_FORKS' },
      remote_user: { value: 'deploy # kept', origin: `${CFG}:4` },
      private_key_file: { value: '/home/u/.ssh/id', origin: `${CFG}:5` },
      become: { value: true, origin: `${CFG}:8` },
      vault_password_file: { value: '/work/v.txt', origin: 'ANSIBLE_VAULT_PASSWORD_FILE' },
      ssh_args: { value: '-o StrictHostKeyChecking=no\n-o ServerAliveInterval=5', origin: `${CFG}:10` },
    },
    warnings: [
      `${CFG}: settings play does not honour (ignored): [defaults] gathering (line 6), [ssh_connection] pipelining (line 12)`,
    ],
  });
});

test('configparser: sections, [DEFAULT], continuation and blank lines, comments', (t) => {
  const ini = parseIni('[DEFAULT]\na = 1\n[s]\nB: two ; c\n  more\n\n  last\n# x\n  ; y\nc=%(a)s\n');
  t.deepEqual(
    {
      defaults: Object.fromEntries(ini.defaults),
      sections: Object.fromEntries([...ini.sections].map(([k, v]) => [k, Object.fromEntries(v)])),
    },
    {
      defaults: { a: { value: '1', line: 2 } },
      sections: { s: { b: { value: 'two\nmore\n\nlast', line: 4 }, c: { value: '%(a)s', line: 10 } } },
    },
  );
});

const errorCases: [string, string | null, NodeJS.ProcessEnv, string][] = [
  [
    'a key before any section',
    'forks = 3',
    {},
    `${CFG}:1: a setting before any [section] header (ansible.cfg is read as Ansible reads it)`,
  ],
  [
    'a key twice',
    '[defaults]\nforks=1\nforks=2',
    {},
    `${CFG}:3: forks is given twice in [defaults] (ansible.cfg is read as Ansible reads it)`,
  ],
  [
    'a section twice',
    '[defaults]\n[defaults]',
    {},
    `${CFG}:2: section [defaults] is given twice (ansible.cfg is read as Ansible reads it)`,
  ],
  [
    'a line without =',
    '[defaults]\njust words',
    {},
    `${CFG}:2: expected 'key = value', got 'just words' (ansible.cfg is read as Ansible reads it)`,
  ],
  ['forks not a number', '[defaults]\nforks = many', {}, `${CFG}:2: forks: 'many' is not a whole number`],
  ['forks 0', '[defaults]\nforks = 0', {}, `${CFG}:2: forks: must be at least 1, got 0`],
  [
    'a bad ANSIBLE_ boolean',
    null,
    { ANSIBLE_HOST_KEY_CHECKING: 'nope' },
    "ANSIBLE_HOST_KEY_CHECKING: 'nope' is not a boolean: expected yes/no, true/false, on/off, 1/0 (or y/n, t/f)",
  ],
];

test('bad input: one message naming the file and line, or the variable (exit 65)', (t) => {
  const got = errorCases.map(([name, text, env]) => {
    try {
      config(text, env);
      return [name, 'no error'];
    } catch (e) {
      return [name, `${(e as Error).message} ${(e as { exitCode?: number }).exitCode}`];
    }
  });
  t.deepEqual(
    got,
    errorCases.map(([name, , , message]) => [name, `${message} 65`]),
  );
});

test('connectionSettings: only what the user set, StrictHostKeyChecking in ssh args as host key checking', (t) => {
  const c = config('[defaults]\nremote_user = ops\n[ssh_connection]\nssh_common_args = -o StrictHostKeyChecking=no', {
    ANSIBLE_BECOME_USER: 'admin',
  });
  t.deepEqual(connectionSettings(c), {
    remoteUser: { value: 'ops', origin: `${CFG}:2` },
    becomeUser: { value: 'admin', origin: 'ANSIBLE_BECOME_USER' },
    sshCommonArgs: { value: '-o StrictHostKeyChecking=no', origin: `${CFG}:4` },
    hostKeyChecking: { value: false, origin: `${CFG}:4` },
  });
});

test('poolDefaults: host_key_checking=False is accept-new with a warning; timeout is the connection timeout', (t) => {
  const c = config(
    '[defaults]\nhost_key_checking = False\ntimeout = 30\n[ssh_connection]\nssh_args = -C -o ControlMaster=auto -o ProxyJump=b -o ForwardAgent=yes',
  );
  t.deepEqual(
    [poolDefaults(false, c), poolDefaults(true, config(null))],
    [
      {
        acceptNew: true,
        connectTimeoutMs: 30_000,
        warnings: [
          `host key checking off (${CFG}:2): play never accepts a changed host key; it records unknown ones (accept-new)`,
          `ssh_args (${CFG}:5): play does not apply -o ForwardAgent=yes to hosts (of ssh's options it applies User, Port, IdentityFile, UserKnownHostsFile, ConnectTimeout, ServerAliveInterval, ProxyJump and ProxyCommand)`,
        ],
      },
      { acceptNew: true, warnings: [] },
    ],
  );
});

test('vault sources: the identity list first, the password file named by its origin', (t) => {
  const c = config('[defaults]\nvault_password_file = pw.txt\nvault_identity_list = dev@d.txt, prod@prompt');
  t.deepEqual(vaultSourcesOf(c, {}), {
    vaultIds: [
      { slug: 'dev@d.txt', from: `vault_identity_list in ${CFG}:3 (dev@d.txt)` },
      { slug: 'prod@prompt', from: `vault_identity_list in ${CFG}:3 (prod@prompt)` },
    ],
    passwordFiles: [{ value: '/proj/pw.txt', from: `vault_password_file /proj/pw.txt (${CFG}:2)` }],
  });
});
