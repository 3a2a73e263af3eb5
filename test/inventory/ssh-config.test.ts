// ssh_config through loadInventory: Ansible with OpenSSH's precedence (the inventory's connection vars,
// then the first value the config gives, Host patterns matched against ansible_host or the name),
// the fields play honours, one warning per file for the keys it does not, and errors that name the
// config file and line. What ssh itself resolves is checked against `ssh -G` in ssh-config-oracle.test.ts.
import test, { type ExecutionContext } from 'ava';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { SshConfig } from '../../runner/ssh-config/config.js';

interface Setup {
  dir: string;
  config: string;
  load(): ReturnType<typeof loadInventory>;
  error(): string;
}

/** An inventory and a user's ssh_config (DIR/home/.ssh/config, mode 0644), nothing else read. */
function setup(t: ExecutionContext, inventory: string, config: string, extra: Record<string, string> = {}): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'play-ssh-config-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const home = join(dir, 'home');
  mkdirSync(join(home, '.ssh', 'conf.d'), { recursive: true });
  const file = join(home, '.ssh', 'config');
  writeFileSync(file, config, { mode: 0o644 });
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(dir, name), text, { mode: 0o644 });
  writeFileSync(join(dir, 'hosts.yaml'), inventory);
  const sshConfig = () => new SshConfig({ home, files: [{ path: file, userConf: true, checkPerm: true }] });
  const load = () => loadInventory(join(dir, 'hosts.yaml'), { sshConfig: sshConfig() });
  return {
    dir,
    config: file,
    load,
    error() {
      try {
        load();
      } catch (e) {
        if (e instanceof InventoryError) return e.message.replaceAll(dir, 'DIR');
        throw e;
      }
      throw new Error('loaded without an error');
    },
  };
}

test('inventory vars first, then the first value of the config; Host matches ansible_host, else the name', (t) => {
  const s = setup(
    t,
    `
all:
  hosts:
    gw1: {}
    gw2: { ansible_user: inv-user, ansible_port: 2022, ansible_ssh_private_key_file: keys/inv }
    db1: { ansible_host: 10.0.0.5 }
    web1: { ansible_host: gw1 }
`,
    `Host gw*
  HostName %h.example.net
  User cfg-user
  Port 2200
  IdentityFile ~/.ssh/id_%h
Host gw1
  User too-late
Host 10.0.0.*
  User db-admin
Host *
  IdentityFile ~/.ssh/common
`,
  );
  const inv = s.load();
  const c = (h: string) => inv.host(h)!.connection;
  const home = join(s.dir, 'home');
  t.like(c('gw1'), { address: 'gw1.example.net', port: 2200, user: 'cfg-user' });
  t.deepEqual(c('gw1').identityFiles, [
    { file: join(home, '.ssh/id_gw1.example.net'), from: `${s.config}:5` },
    { file: join(home, '.ssh/common'), from: `${s.config}:11` },
  ]);
  // The inventory's vars win; the config's key files come after the inventory's.
  t.like(c('gw2'), { address: 'gw2.example.net', port: 2022, user: 'inv-user', keyFile: join(s.dir, 'keys/inv') });
  t.is(c('gw2').identityFiles?.length, 2);
  // ssh is given ansible_host: `Host 10.0.0.*` matches it, `Host *` too, HostName stays the address.
  t.like(c('db1'), { address: '10.0.0.5', port: 22, user: 'db-admin' });
  // ansible_host names a config alias: its HostName applies, as ssh would apply it.
  t.like(c('web1'), { address: 'gw1.example.net', user: 'cfg-user' });
  t.deepEqual(inv.warnings, []);
});

test('what play honours beyond host, port and user: known_hosts, host key checking, timeouts, IdentitiesOnly', (t) => {
  const s = setup(
    t,
    `
all:
  hosts:
    a: {}
    b: { play_known_hosts: kh/inventory }
    c: {}
`,
    `Host a
  UserKnownHostsFile ~/.ssh/kh_%h
  StrictHostKeyChecking accept-new
  ConnectTimeout 1m
  ServerAliveInterval 20
  ServerAliveCountMax 4
  IdentitiesOnly yes
  IdentityFile ~/.ssh/a
Host b
  UserKnownHostsFile /kh/first /kh/second
  StrictHostKeyChecking no
Host c
  StrictHostKeyChecking ask
  ServerAliveInterval 0
`,
  );
  const inv = s.load();
  const c = (h: string) => inv.host(h)!.connection;
  t.like(c('a'), {
    knownHostsFile: join(s.dir, 'home/.ssh/kh_a'),
    acceptNew: true,
    connectTimeoutSec: 60,
    serverAliveIntervalSec: 20,
    serverAliveCountMax: 4,
    identitiesOnly: true,
  });
  t.like(c('b'), { knownHostsFile: join(s.dir, 'kh/inventory'), acceptNew: true });
  t.is(c('c').acceptNew, undefined);
  t.is(c('c').serverAliveIntervalSec, 0);
  t.deepEqual(inv.warnings, [
    `${s.config}:10: UserKnownHostsFile: play reads one known_hosts file, the first (/kh/first); not read: /kh/second`,
    `${s.config}:11: StrictHostKeyChecking no: play never accepts a changed host key; it records unknown ones (accept-new)`,
  ]);
});

test('keys play does not honour: one warning per file, naming each line, only for blocks that applied', (t) => {
  const s = setup(
    t,
    `
all:
  hosts:
    ${Array.from({ length: 5 }, (_, i) => `web${i}: {}`).join('\n    ')}
`,
    `Host web*
  ControlMaster auto
  ControlPersist 60s
  Ciphers aes256-gcm@openssh.com
  BatchMode yes
  ForwardAgent no
Host nothing-here
  LocalForward 8080 localhost:80
Match exec "test -e /etc/hostname"
  User from-exec
Host *
  SendEnv LANG
Include conf.d/*.conf
`,
  );
  writeFileSync(join(s.dir, 'home/.ssh/conf.d/extra.conf'), 'Compression yes\n', { mode: 0o644 });
  const inv = s.load();
  t.is(inv.host('web0')!.connection.user, userInfo().username, 'Match exec is skipped');
  t.deepEqual(inv.warnings, [
    `${s.config}:9: Match exec is not evaluated by play: the block is skipped (write its settings in a Host block or the inventory)`,
    `${s.config}: ssh_config keys play does not honour, ignored: ControlMaster (line 2), ControlPersist (line 3), Ciphers (line 4), SendEnv (line 12)`,
    `${join(s.dir, 'home/.ssh/conf.d/extra.conf')}: ssh_config keys play does not honour, ignored: Compression (line 1)`,
  ]);
});

test("the system-wide file: the distribution's SendEnv, HashKnownHosts, GSSAPI are not repeated at every run", (t) => {
  const s = setup(t, 'all:\n  hosts:\n    db1: {}\n', 'Host *\n  SendEnv LC_ALL\n');
  const system = join(s.dir, 'ssh_config');
  const lines = [
    'Host *',
    '  SendEnv LANG LC_*',
    '  HashKnownHosts yes',
    '  GSSAPIAuthentication yes',
    '  Ciphers aes128-ctr',
  ];
  writeFileSync(system, `${lines.join('\n')}\n`);
  const sshConfig = new SshConfig({
    home: join(s.dir, 'home'),
    files: [
      { path: s.config, userConf: true, checkPerm: true },
      { path: system, userConf: false, checkPerm: false },
    ],
  });
  t.deepEqual(loadInventory(join(s.dir, 'hosts.yaml'), { sshConfig }).warnings, [
    `${s.config}: ssh_config keys play does not honour, ignored: SendEnv (line 2)`,
    `${system}: ssh_config keys play does not honour, ignored: Ciphers (line 5)`,
  ]);
});

test('what ssh would refuse is an error naming the config file and line', (t) => {
  const inventory = 'all:\n  hosts:\n    db1: {}\n';
  const cases: [string, string][] = [
    ['Host db1\n  Port 70000\n', "DIR/home/.ssh/config:2: bad port '70000': a number from 1 to 65535"],
    [
      'Host *\n  ConnectTimeout soon\n',
      "DIR/home/.ssh/config:2: ConnectTimeout 'soon' is not a time (seconds, or such as 1m30s)",
    ],
    ['Host *\n  IdentityFile "~/.ssh/unterminated\n', 'DIR/home/.ssh/config:2: IdentityFile: invalid quotes'],
    ['Match host\n  User x\n', 'DIR/home/.ssh/config:1: Match: missing criteria for host'],
    [
      'Match canonical all\n  User x\nMatch frobnicate x\n',
      "DIR/home/.ssh/config:3: Match: unsupported attribute 'frobnicate'",
    ],
    ['Host *\n  IdentityFile /keys/%z\n', "DIR/home/.ssh/config:2: '/keys/%z': unknown token %z"],
    ['Include config config\n', 'DIR/home/.ssh/config:1: more than 16 nested Includes (does a file include itself?)'],
    [
      'Host db1\n  ProxyJump a,b\n',
      'DIR/home/.ssh/config:2: host db1: ProxyJump=a,b: a chain of 2 jump hosts is not supported yet: play jumps through one host',
    ],
    [
      'Host db1\n  ProxyJump bastion\nHost bastion\n  ProxyJump other\n',
      'DIR/home/.ssh/config:2: host db1: ProxyJump: its jump host bastion has a jump host of its own (other, DIR/home/.ssh/config:4): a chain of jump hosts is not supported yet',
    ],
  ];
  for (const [config, message] of cases) t.is(setup(t, inventory, config).error(), message, config);
});

test("a user's config that others may write is refused, as ssh refuses it; -F's file is not checked", (t) => {
  const s = setup(t, 'all:\n  hosts:\n    db1: {}\n', 'Host *\n  User x\n');
  chmodSync(s.config, 0o664);
  t.is(
    s.error(),
    'DIR/home/.ssh/config: bad owner or permissions (mode 0664, owner uid 0): ssh refuses to read it too; make it yours and writable only by you (chmod go-w DIR/home/.ssh/config)'.replace(
      'uid 0',
      `uid ${process.getuid!()}`,
    ),
  );
  const f = setup(t, 'all:\n  vars:\n    ansible_ssh_common_args: -F cluster.conf\n  hosts:\n    db1: {}\n', '', {
    'cluster.conf': 'Host db1\n  User from-f\n',
  });
  chmodSync(join(f.dir, 'cluster.conf'), 0o666);
  chmodSync(f.config, 0o666);
  t.is(f.load().host('db1')!.connection.user, 'from-f', "-F: only that file is read (the user's is not)");
});

test('a jump host from the config: ProxyJump to an alias takes its HostName, Port, User and IdentityFile', (t) => {
  const s = setup(
    t,
    `
all:
  hosts:
    db1: { ansible_host: 10.0.0.11 }
    db2: { ansible_host: 10.0.0.12, ansible_ssh_common_args: -o ProxyJump=none }
    bastion1: { ansible_host: 203.0.113.10, ansible_user: ops }
    db3: { ansible_host: 10.0.1.13 }
`,
    `Host 10.0.0.*
  ProxyJump jump
Host 10.0.1.*
  ProxyJump bastion1
Host jump
  HostName jump.example.net
  Port 2200
  User jumper
  IdentityFile ~/.ssh/jump
Host *
  ProxyCommand nc -X connect -x proxy:3128 %h %p
`,
  );
  const inv = s.load();
  t.deepEqual(inv.host('db1')!.connection.jump, {
    hostName: 'jump',
    address: 'jump.example.net',
    port: 2200,
    user: 'jumper',
    identityFiles: [{ file: join(s.dir, 'home/.ssh/jump'), from: `${s.config}:9` }],
  });
  t.is(inv.host('db2')!.connection.jump, undefined, 'the ssh args come first, even `none`');
  // An inventory host's name: its inventory vars.
  t.like(inv.host('db3')!.connection.jump, { address: '203.0.113.10', user: 'ops', port: 22 });
  t.deepEqual(inv.warnings, [
    `${s.config}:11: ProxyCommand 'nc -X connect -x proxy:3128 %h %p': nc is not ssh; play supports only \`ssh -W %h:%p [-p PORT] [-l USER] [-i KEY] [user@]host\`: not honoured, play connects without it`,
  ]);
});

test("without an SshConfig, loadInventory reads no user's config", (t) => {
  const s = setup(t, 'all:\n  hosts:\n    db1: {}\n', 'Host *\n  User from-config\n');
  const inv = loadInventory(join(s.dir, 'hosts.yaml'));
  t.is(inv.host('db1')!.connection.user, userInfo().username);
  t.is(inv.host('db1')!.connection.identityFiles, undefined);
});

test('an Include pattern is expanded once per SshConfig: a file added meanwhile is read by the next one', (t) => {
  const s = setup(t, 'all:\n  hosts:\n    db1: {}\n', 'Include conf.d/*.conf\n');
  const confD = join(s.dir, 'home/.ssh/conf.d');
  writeFileSync(join(confD, 'a.conf'), 'Host h1\n  User one\n', { mode: 0o644 });
  const files = [{ path: s.config, userConf: true, checkPerm: true }];
  const home = join(s.dir, 'home');
  const run = new SshConfig({ home, files });
  t.is(run.lookup('h1').user?.value, 'one');
  writeFileSync(join(confD, 'b.conf'), 'Host h2\n  User two\n', { mode: 0o644 });
  t.is(run.lookup('h2').user, undefined);
  t.is(new SshConfig({ home, files }).lookup('h2').user?.value, 'two');
});
