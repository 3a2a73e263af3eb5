// How each host is reached: Ansible's connection variables, paths resolved from the inventory's
// directory, the OS family, and passwords that only ever come from the environment.
import test from 'ava';
import { homedir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import { knownHostsFromSshArgs, shellWords } from '../../runner/inventory/connection.js';
import { loadInventory, resolveSecrets, resolveVars } from '../../runner/inventory/load.js';
import { EnvRef } from '../../runner/inventory/model.js';

const FILE = new URL('fixtures/connection.yaml', import.meta.url).pathname;
const DIR = dirname(FILE);
const inv = loadInventory(FILE);
const conn = (host: string) => inv.host(host)!.connection;

test("address, port and user, with ansible's defaults and aliases", (t) => {
  t.deepEqual(
    { ...conn('tor1'), keyFile: undefined, keyFrom: undefined, knownHostsFile: undefined },
    {
      address: '172.16.126.202',
      port: 2222,
      user: 'root',
      os: 'linux',
      keyFile: undefined,
      keyFrom: undefined,
      knownHostsFile: undefined,
    },
  );
  t.is(conn('tor2').address, 'tor2'); // no ansible_host: the inventory name
  t.is(conn('tor2').port, 22);
  t.is(conn('tor5').address, '10.0.0.55'); // ansible_ssh_host wins over ansible_host, as in ansible's ssh plugin
  t.is(conn('plain').user, userInfo().username); // no ansible_user: the current user
});

test("key files are resolved from the inventory's directory, ~ is the home directory", (t) => {
  t.is(conn('tor1').keyFile, join(DIR, 'keys/id_ed25519'));
  t.is(conn('tor5').keyFile, join(homedir(), '.ssh/tor5'));
  // Which alias set it, for messages: tor5 has both, and the ssh_ spelling wins as in ansible.
  t.deepEqual(
    ['tor1', 'tor5'].map((h) => conn(h).keyFrom),
    ['ansible_ssh_private_key_file', 'ansible_ssh_private_key_file'],
  );
});

test('known_hosts comes from play_known_hosts or -o UserKnownHostsFile in the ssh args', (t) => {
  t.is(conn('tor1').knownHostsFile, join(DIR, 'known_hosts/tor')); // relative: from the inventory's directory
  t.is(conn('tor2').knownHostsFile, '/etc/play/known_hosts'); // -oUserKnownHostsFile=PATH
  t.is(conn('tor3').knownHostsFile, '/srv/ssh keys/known hosts'); // quoted; common args come before extra args
  t.is(conn('tor4').knownHostsFile, join(homedir(), '.ssh/tor_known_hosts')); // "UserKnownHostsFile PATH" in extra args
  t.is(conn('tor5').knownHostsFile, join(homedir(), 'play/known_hosts')); // play_known_hosts wins
  t.is(conn('node009').knownHostsFile, undefined);
});

test('ssh argument parsing', (t) => {
  t.deepEqual(shellWords(`-o 'A=1 2' -o "B=\\"x\\"" C\\ D`), ['-o', 'A=1 2', '-o', 'B="x"', 'C D']);
  t.is(knownHostsFromSshArgs('-o StrictHostKeyChecking=no'), undefined);
  t.is(knownHostsFromSshArgs('-o userknownhostsfile=/x'), '/x'); // ssh option names are case-insensitive
  t.is(knownHostsFromSshArgs('-oUserKnownHostsFile="/a/b"'), '/a/b');
  t.is(knownHostsFromSshArgs(`-o "UserKnownHostsFile=/c" -o 'UserKnownHostsFile=/d'`), '/c'); // ssh takes the first
  t.is(knownHostsFromSshArgs('-o "UserKnownHostsFile=/a b"'), '/a'); // ssh reads "/a b" as two files, writes to the first
  t.throws(() => shellWords(`-o 'unterminated`), { message: /unterminated single quote/ });
  t.throws(() => shellWords(`-o 'unterminated`), { message: /unterminated single quote/ });
  // A text is split once per process, and every caller gets an array of its own.
  shellWords('-o A=1').push('changed by a caller');
  t.deepEqual(shellWords('-o A=1'), ['-o', 'A=1']);
});

test('PowerShell or cmd as the shell, or os: windows, make a Windows host; ssh, smart, paramiko are ssh', (t) => {
  t.is(conn('node009').os, 'windows');
  t.is(conn('node010').os, 'windows');
  t.is(conn('win-by-var').os, 'windows');
  t.is(conn('plain').os, 'linux');
  t.is(conn('tor1').os, 'linux');
});

test('passwords are EnvRefs (any quoting and spacing of the lookup)', (t) => {
  t.deepEqual(conn('node009').password, new EnvRef('WINDOWS_ADMIN_PASSWORD'));
  t.deepEqual(conn('node009').becomePassword, new EnvRef('NODE009_BECOME'));
  t.deepEqual(conn('node010').password, new EnvRef('NODE010_PASSWORD'));
  t.is(conn('tor1').password, undefined);
  t.is(JSON.stringify(inv.host('node009')!.vars.ansible_password), `"{{ lookup('env', 'WINDOWS_ADMIN_PASSWORD') }}"`);
});

test('resolveSecrets reads the environment into Secrets', (t) => {
  const s = resolveSecrets(inv.host('node009')!, { WINDOWS_ADMIN_PASSWORD: 'pw-009', NODE009_BECOME: 'become-009' });
  t.true(s.password instanceof Secret);
  t.is(s.password!.reveal(), 'pw-009');
  t.is(s.password!.source, 'env:WINDOWS_ADMIN_PASSWORD');
  t.is(s.becomePassword!.reveal(), 'become-009');
  t.deepEqual(resolveSecrets(inv.host('tor1')!, {}), {});
});

test('a missing environment variable names the host, the variable and the environment variable', (t) => {
  const e = t.throws(() => resolveSecrets(inv.host('node010')!, {}), { instanceOf: InventoryError });
  t.is(
    e.message,
    `${FILE}: host node010: ansible_password needs environment variable NODE010_PASSWORD, which is not set: export it or put it in .env`,
  );
  const empty = t.throws(() => resolveSecrets(inv.host('node009')!, { WINDOWS_ADMIN_PASSWORD: '' }), {
    instanceOf: InventoryError,
  });
  t.regex(
    empty.message,
    /host node009: ansible_password needs environment variable WINDOWS_ADMIN_PASSWORD, which is empty/,
  );
});

test('resolveVars turns every EnvRef, at any depth, into a Secret', (t) => {
  const vars = resolveVars(inv.host('plain')!, { NESTED_SECRET: 'deep-value' });
  const list = (vars.nested as { list: unknown[] }).list;
  t.true(list[0] instanceof Secret);
  t.is((list[0] as Secret).reveal(), 'deep-value');
  t.is(list[1], 'plain text');
  const e = t.throws(() => resolveVars(inv.host('plain')!, {}), { instanceOf: InventoryError });
  t.regex(e.message, /host plain: nested\.list\[0\] needs environment variable NESTED_SECRET, which is not set/);
});
