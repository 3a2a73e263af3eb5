// Jump hosts read from the ssh arguments Ansible passes: every accepted form and every refused one,
// as whole tables; then through loadInventory: a bastion named by its inventory name, defaults,
// paths, and the errors that name the file, the host and the var.
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { jumpSettings } from '../../runner/inventory/jump-args.js';
import { loadInventory } from '../../runner/inventory/load.js';

const outcome = (args: string) => {
  try {
    return jumpSettings(args);
  } catch (e) {
    return { error: (e as Error).message };
  }
};

const ONLY = 'play supports only `ssh -W %h:%p [-p PORT] [-l USER] [-i KEY] [user@]host`';

test('accepted forms: ProxyJump, -J and ProxyCommand ssh -W, as ssh reads them', (t) => {
  const table: [string, unknown][] = [
    ['-o ProxyJump=bastion', [{ form: 'ProxyJump', host: 'bastion' }]],
    [
      '-o ProxyJump=ops@bastion.example.com:2222',
      [{ form: 'ProxyJump', host: 'bastion.example.com', user: 'ops', port: 2222 }],
    ],
    ['-oProxyJump=root@198.18.2.1', [{ form: 'ProxyJump', host: '198.18.2.1', user: 'root' }]],
    ['-o "ProxyJump bastion:22"', [{ form: 'ProxyJump', host: 'bastion', port: 22 }]],
    ['-o proxyjump=bastion', [{ form: 'ProxyJump', host: 'bastion' }]],
    ['-o ProxyJump=ssh://ops@bastion:2200', [{ form: 'ProxyJump', host: 'bastion', user: 'ops', port: 2200 }]],
    ['-o ProxyJump=[2001:db8::1]:2222', [{ form: 'ProxyJump', host: '2001:db8::1', port: 2222 }]],
    ['-o ProxyJump=ops@[2001:db8::1]', [{ form: 'ProxyJump', host: '2001:db8::1', user: 'ops' }]],
    ['-o ProxyJump=none', [{ form: 'ProxyJump', none: true }]],
    ['-J ops@bastion:2222', [{ form: '-J', host: 'bastion', user: 'ops', port: 2222 }]],
    ['-Jbastion', [{ form: '-J', host: 'bastion' }]],
    ['-C -o ControlMaster=auto -J bastion -o ServerAliveInterval=30', [{ form: '-J', host: 'bastion' }]],
    ['-o ProxyCommand="ssh -W %h:%p -q ops@bastion"', [{ form: 'ProxyCommand', host: 'bastion', user: 'ops' }]],
    [
      `-o 'ProxyCommand=ssh -p 2222 -i ~/.ssh/bastion -l ops -W [%h]:%p bastion'`,
      [{ form: 'ProxyCommand', host: 'bastion', user: 'ops', port: 2222, keyFile: '~/.ssh/bastion' }],
    ],
    [
      '-o ProxyCommand="exec /usr/bin/ssh -qT -p2222 bastion -W %h:%p"',
      [{ form: 'ProxyCommand', host: 'bastion', port: 2222 }],
    ],
    // ssh keeps the first value it reads: -l before the destination wins over user@, and the reverse.
    [
      '-o ProxyCommand="ssh -l first -W %h:%p second@bastion"',
      [{ form: 'ProxyCommand', host: 'bastion', user: 'first' }],
    ],
    [
      '-o ProxyCommand="ssh -W %h:%p first@bastion -l second"',
      [{ form: 'ProxyCommand', host: 'bastion', user: 'first' }],
    ],
    [
      '-o ProxyCommand="ssh -o Port=2200 -o User=ops -o IdentityFile=keys/b -o ServerAliveInterval=15 -W %h:%p bastion"',
      [{ form: 'ProxyCommand', host: 'bastion', user: 'ops', port: 2200, keyFile: 'keys/b' }],
    ],
    ['-o ProxyCommand=none', [{ form: 'ProxyCommand', none: true }]],
    // Several settings are all returned, in order: the inventory reader decides (ssh takes the first).
    [
      '-o ProxyJump=a -J b',
      [
        { form: 'ProxyJump', host: 'a' },
        { form: '-J', host: 'b' },
      ],
    ],
    ['-o UserKnownHostsFile=/x -o StrictHostKeyChecking=yes', []],
    // A value of another option is never read as a flag.
    ['-l -J', []],
  ];
  t.deepEqual(
    table.map(([args]) => [args, outcome(args)]),
    table,
  );
});

test('refused forms: each says what and why', (t) => {
  const table: [string, unknown][] = [
    [
      '-o ProxyJump=a,b',
      { error: 'ProxyJump=a,b: a chain of 2 jump hosts is not supported yet: play jumps through one host' },
    ],
    ['-J a@b:1,c', { error: '-J a@b:1,c: a chain of 2 jump hosts is not supported yet: play jumps through one host' }],
    ['-o ProxyJump=2001:db8::1', { error: 'ProxyJump=2001:db8::1: write an IPv6 address in brackets ([2001:db8::1])' }],
    ['-o ProxyJump=bastion:ssh', { error: "ProxyJump=bastion:ssh: port 'ssh' is not a number from 1 to 65535" }],
    ['-o ProxyJump=bastion:70000', { error: "ProxyJump=bastion:70000: port '70000' is not a number from 1 to 65535" }],
    ['-o ProxyJump=@bastion', { error: "ProxyJump=@bastion: '' is not a user name" }],
    ['-o ProxyJump=', { error: "ProxyJump=: '' is not a host name or address" }],
    ['-J', { error: '-J is missing its value' }],
    ["-o 'ProxyCommand=nc %h %p'", { error: `ProxyCommand 'nc %h %p': nc is not ssh; ${ONLY}` }],
    [
      "-o 'ProxyCommand=connect-proxy -S socks:1080 %h %p'",
      { error: `ProxyCommand 'connect-proxy -S socks:1080 %h %p': connect-proxy is not ssh; ${ONLY}` },
    ],
    [
      "-o 'ProxyCommand=ssh bastion nc %h %p'",
      { error: `ProxyCommand 'ssh bastion nc %h %p': 'nc' after the destination (a remote command); ${ONLY}` },
    ],
    ["-o 'ProxyCommand=ssh bastion'", { error: `ProxyCommand 'ssh bastion': no -W %h:%p; ${ONLY}` }],
    ["-o 'ProxyCommand=ssh -W %h:%p'", { error: `ProxyCommand 'ssh -W %h:%p': no destination host; ${ONLY}` }],
    [
      "-o 'ProxyCommand=ssh -W db1:22 bastion'",
      { error: `ProxyCommand 'ssh -W db1:22 bastion': -W db1:22 does not forward to the target (%h:%p); ${ONLY}` },
    ],
    [
      "-o 'ProxyCommand=ssh -J jump1 -W %h:%p bastion'",
      { error: `ProxyCommand 'ssh -J jump1 -W %h:%p bastion': -J jump1 inside it (a chain of jump hosts); ${ONLY}` },
    ],
    [
      "-o 'ProxyCommand=ssh -F ~/.ssh/other -W %h:%p bastion'",
      { error: `ProxyCommand 'ssh -F ~/.ssh/other -W %h:%p bastion': the option -F ~/.ssh/other; ${ONLY}` },
    ],
    [
      "-o 'ProxyCommand=ssh -o StrictHostKeyChecking=no -W %h:%p bastion'",
      {
        error:
          "ProxyCommand 'ssh -o StrictHostKeyChecking=no -W %h:%p bastion': -o StrictHostKeyChecking=no (only Port, User, IdentityFile and keepalive, timeout or logging options are read there); " +
          ONLY,
      },
    ],
    [
      "-o 'ProxyCommand=ssh -i a -i b -W %h:%p bastion'",
      { error: `ProxyCommand 'ssh -i a -i b -W %h:%p bastion': several identity files (play offers one key); ${ONLY}` },
    ],
    [
      "-o 'ProxyCommand=ssh -W %h:%p bastion:2222'",
      {
        error:
          "ProxyCommand 'ssh -W %h:%p bastion:2222': ssh's destination 'bastion:2222' takes no :port (give -p PORT)",
      },
    ],
    [
      "-o 'ProxyCommand=ssh -W %h:%p $BASTION'",
      {
        error: `ProxyCommand 'ssh -W %h:%p $BASTION': a shell construct (pipe, redirection, expansion, list); ${ONLY}`,
      },
    ],
    [
      "-o 'ProxyCommand=ssh -W %h:%p bastion 2>/dev/null'",
      {
        error: `ProxyCommand 'ssh -W %h:%p bastion 2>/dev/null': a shell construct (pipe, redirection, expansion, list); ${ONLY}`,
      },
    ],
    [
      `-o 'ProxyCommand=ssh -W %h:%p "bastion'`,
      { error: `ProxyCommand 'ssh -W %h:%p "bastion': unterminated double quote; ${ONLY}` },
    ],
    [`-o 'ProxyJump=bastion`, { error: 'unterminated single quote' }],
  ];
  t.deepEqual(
    table.map(([args]) => [args, outcome(args)]),
    table,
  );
});

/** Loads `yaml` as an inventory file in a fresh directory; the result or the error's message. */
function load(t: import('ava').ExecutionContext, yaml: string) {
  const dir = mkdtempSync(join(tmpdir(), 'play-jump-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'hosts.yaml');
  writeFileSync(file, yaml);
  try {
    return { dir, file, inv: loadInventory(file) };
  } catch (e) {
    if (!(e instanceof InventoryError)) throw e;
    return { dir, file, error: e.message.replaceAll(dir, 'DIR') };
  }
}

test('a bastion named by its inventory name is reached with its connection vars; what the setting says wins', (t) => {
  const { dir, inv } = load(
    t,
    `
all:
  vars:
    ansible_user: admin
    ansible_ssh_private_key_file: keys/admin
  children:
    bastions:
      hosts:
        bastion1: { ansible_host: 203.0.113.10, ansible_port: 2222, ansible_user: ops, ansible_ssh_private_key_file: keys/ops }
    db:
      vars:
        ansible_ssh_common_args: -o ProxyJump=bastion1
      hosts:
        db1: { ansible_host: 10.0.0.11 }
        db2: { ansible_host: 10.0.0.12, ansible_ssh_extra_args: -o ProxyJump=bastion1 }
        db3: { ansible_host: 10.0.0.13, ansible_ssh_common_args: -J root@bastion1:22 }
    edge:
      hosts:
        edge1: { ansible_ssh_common_args: -o ProxyJump=jump.example.com }
        edge2: { ansible_ssh_common_args: "-o ProxyCommand='ssh -W %h:%p -i keys/jump -p 2022 jumper@192.0.2.7'" }
        edge3: { ansible_ssh_common_args: -o ProxyJump=none }
        edge4: { ansible_ssh_common_args: "-o ProxyCommand='ssh -W %h:%p -i ~/.ssh/jump jump.example.com'" }
`,
  );
  const bastion1 = {
    hostName: 'bastion1',
    address: '203.0.113.10',
    port: 2222,
    user: 'ops',
    keyFile: join(dir, 'keys/ops'),
    keyFrom: "bastion1's ansible_ssh_private_key_file",
  };
  const address = (host: string) => ({ hostName: host, address: host, port: 22, user: userInfo().username });
  t.deepEqual(
    ['db1', 'db2', 'db3', 'edge1', 'edge2', 'edge3', 'edge4', 'bastion1'].map((h) => [
      h,
      inv!.host(h)!.connection.jump,
    ]),
    [
      ['db1', bastion1],
      ['db2', bastion1], // the same setting in two vars: one jump
      ['db3', { ...bastion1, user: 'root', port: 22 }],
      // An address: port 22 and the current user (as ssh would), the host's own key (play reads no ~/.ssh/config).
      [
        'edge1',
        { ...address('jump.example.com'), keyFile: join(dir, 'keys/admin'), keyFrom: 'ansible_ssh_private_key_file' },
      ],
      [
        'edge2',
        {
          ...address('192.0.2.7'),
          port: 2022,
          user: 'jumper',
          keyFile: join(dir, 'keys/jump'),
          keyFrom: 'ansible_ssh_common_args (-i)',
        },
      ],
      ['edge3', undefined],
      [
        'edge4',
        {
          ...address('jump.example.com'),
          keyFile: join(homedir(), '.ssh/jump'),
          keyFrom: 'ansible_ssh_common_args (-i)',
        },
      ],
      ['bastion1', undefined],
    ],
  );
  t.deepEqual(inv!.warnings, []);
});

test('a group setting that reaches the bastion itself connects it directly, with a warning', (t) => {
  const { file, inv } = load(
    t,
    `
all:
  vars:
    ansible_ssh_common_args: -o ProxyJump=bastion1
  hosts:
    bastion1: { ansible_host: 203.0.113.10 }
    db1: { ansible_host: 10.0.0.11 }
`,
  );
  t.is(inv!.host('bastion1')!.connection.jump, undefined);
  t.is(inv!.host('db1')!.connection.jump?.address, '203.0.113.10');
  t.deepEqual(inv!.warnings, [
    `${file}:4: at all.vars.ansible_ssh_common_args: host bastion1: ansible_ssh_common_args: its jump host is the host itself; connecting directly`,
  ]);
});

test('an ssh_config file (-F) is read: its ProxyJump applies; a missing one is an error naming it', (t) => {
  const yaml = (args: string) => `
all:
  vars:
    ansible_ssh_common_args: ${args}
  hosts:
    bastion1: { ansible_host: 203.0.113.10 }
    db1: { ansible_host: 10.0.0.11 }
`;
  const { dir, file, error } = load(t, yaml('-F cluster.conf'));
  t.is(
    error,
    'DIR/hosts.yaml:4: at all.vars.ansible_ssh_common_args: ansible_ssh_common_args: -F cluster.conf: DIR/cluster.conf does not exist (ssh would refuse to start)',
  );
  writeFileSync(join(dir, 'cluster.conf'), 'Host 10.0.0.*\n  ProxyJump bastion1\n');
  const inv = loadInventory(file);
  t.is(inv.host('db1')!.connection.jump?.address, '203.0.113.10');
  t.is(inv.host('bastion1')!.connection.jump, undefined);
  t.deepEqual(inv.warnings, []);
});

test('refused settings name the file, the host and the var', (t) => {
  const cases: [string, string][] = [
    [
      'db1: { ansible_ssh_common_args: "-o ProxyCommand=\'nc -X connect -x proxy:3128 %h %p\'" }',
      "DIR/hosts.yaml:3: at all.hosts.db1.ansible_ssh_common_args: host db1: ansible_ssh_common_args: ProxyCommand 'nc -X connect -x proxy:3128 %h %p': nc is not ssh; " +
        ONLY,
    ],
    [
      'db1: { ansible_ssh_extra_args: "-J a,b" }',
      'DIR/hosts.yaml:3: at all.hosts.db1.ansible_ssh_extra_args: host db1: ansible_ssh_extra_args: -J a,b: a chain of 2 jump hosts is not supported yet: play jumps through one host',
    ],
    [
      'db1: { ansible_ssh_common_args: -o ProxyJump=none, ansible_ssh_extra_args: -o ProxyJump=b1 }',
      'DIR/hosts.yaml:3: at all.hosts.db1.ansible_ssh_extra_args: host db1: ansible_ssh_extra_args: ProxyJump b1 comes after ProxyJump none (ansible_ssh_common_args), which ssh would use: give the host one jump setting',
    ],
    [
      'db1: { ansible_ssh_common_args: -o ProxyJump=b1 }\n    b1: { ansible_ssh_common_args: -o ProxyJump=b0 }',
      'DIR/hosts.yaml:3: at all.hosts.db1.ansible_ssh_common_args: host db1: ansible_ssh_common_args: its jump host b1 has a jump host of its own (b0): a chain of jump hosts is not supported yet',
    ],
  ];
  t.deepEqual(
    cases.map(([hosts]) => load(t, `all:\n  hosts:\n    ${hosts}\n`).error),
    cases.map(([, error]) => error),
  );
});
