// The lab's generated files, without building a lab: inventory, known_hosts, sshd config, paths.
import test from 'ava';
import YAML from 'yaml';
import { preconditionProblem } from '../../lab/exec.js';
import { inventoryYaml, knownHostsText } from '../../lab/inventory.js';
import { DEFAULT_LAB_DIR, hostPaths, resolveLabDir } from '../../lab/paths.js';
import { sshdConfig } from '../../lab/hosts/sshd.js';
import { planHost } from '../../lab/hosts/topology.js';

const files = { key: '/var/lib/play-lab/id_ed25519', knownHosts: '/var/lib/play-lab/known_hosts' };

test('inventory: Ansible YAML with connection vars on all and hosts under linux and tor', (t) => {
  const hosts = [planHost('linux', 1), planHost('linux', 2), planHost('tor', 1)];
  const doc = YAML.parse(inventoryYaml(hosts, files));
  t.deepEqual(doc, {
    all: {
      vars: {
        ansible_user: 'root',
        ansible_ssh_private_key_file: '/var/lib/play-lab/id_ed25519',
        ansible_ssh_common_args: '-o UserKnownHostsFile=/var/lib/play-lab/known_hosts',
      },
      children: {
        linux: { hosts: { linux1: { ansible_host: '198.18.0.101' }, linux2: { ansible_host: '198.18.0.102' } } },
        tor: { hosts: { tor1: { ansible_host: '198.18.0.11' } } },
      },
    },
  });
});

test('inventory: an empty group stays, as an empty mapping', (t) => {
  const doc = YAML.parse(inventoryYaml([planHost('linux', 1)], files));
  t.deepEqual(doc.all.children.tor, {});
});

test('known_hosts: one plain line per host address', (t) => {
  t.is(
    knownHostsText([
      { address: '198.18.0.101', hostKey: 'ssh-ed25519 AAAAkey1' },
      { address: '198.18.0.11', hostKey: 'ssh-ed25519 AAAAkey2' },
    ]),
    '198.18.0.101 ssh-ed25519 AAAAkey1\n198.18.0.11 ssh-ed25519 AAAAkey2\n',
  );
});

test('sshd config: own address and key, no PAM, lab authorized_keys, sftp, throttles left at defaults', (t) => {
  const host = planHost('tor', 2);
  const text = sshdConfig(host, hostPaths('/var/lib/play-lab', host.name), '/var/lib/play-lab/authorized_keys');
  const lines = text.split('\n');
  for (const want of [
    'ListenAddress 198.18.0.12',
    'HostKey /var/lib/play-lab/hosts/tor2/ssh_host_ed25519_key',
    'UsePAM no',
    'StrictModes no',
    'PermitRootLogin prohibit-password',
    'AuthorizedKeysFile /var/lib/play-lab/authorized_keys',
    'Subsystem sftp internal-sftp',
  ])
    t.true(lines.includes(want), want);
  t.false(/^\s*Max(Startups|Sessions)/m.test(text));
});

test('lab dir: option, then PLAY_LAB_DIR, then the default', (t) => {
  const saved = process.env.PLAY_LAB_DIR;
  try {
    delete process.env.PLAY_LAB_DIR;
    t.is(resolveLabDir(), DEFAULT_LAB_DIR);
    process.env.PLAY_LAB_DIR = '/var/lib/other-lab';
    t.is(resolveLabDir(), '/var/lib/other-lab');
    t.is(resolveLabDir({ dir: '/srvx/lab' }), '/srvx/lab');
  } finally {
    if (saved === undefined) delete process.env.PLAY_LAB_DIR;
    else process.env.PLAY_LAB_DIR = saved;
  }
});

test('lab dir: refused under a directory each host replaces, or with characters needing quotes', (t) => {
  t.throws(() => resolveLabDir({ dir: '/tmp/lab' }), { message: /cannot be under \/tmp/ });
  t.throws(() => resolveLabDir({ dir: '/var/tmp/x' }), { message: /cannot be under \/var\/tmp/ });
  t.throws(() => resolveLabDir({ dir: '/var/lib/my lab' }), { message: /use only/ });
  t.throws(() => resolveLabDir({ dir: '/' }), { message: /not a usable/ });
});

test('preconditions: not root, or a missing tool named with its Debian package', (t) => {
  t.regex(preconditionProblem(1000, () => true)!, /^play lab needs root: it creates network namespaces/);
  t.is(
    preconditionProblem(0, () => true),
    undefined,
  );
  const noSshd = preconditionProblem(0, (p) => p !== '/usr/sbin/sshd');
  t.is(noSshd, 'play lab needs /usr/sbin/sshd: install with `apt-get install openssh-server`');
  const none = preconditionProblem(0, () => false)!;
  t.regex(none, /apt-get install iproute2 openssh-server openssh-client util-linux`$/);
});
