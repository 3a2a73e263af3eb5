// Every bad inventory is refused before any host is touched, with the file, the line, the YAML
// path and what was expected. Fixtures: fixtures/invalid/*.yaml.
import test from 'ava';
import { InventoryError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';

const DIR = new URL('fixtures/invalid/', import.meta.url).pathname;

/** [fixture, `file:line: at path: ` prefix after the directory, then what the message must say]. */
const table: [file: string, where: string, expected: RegExp][] = [
  ['empty.yaml', 'empty.yaml: ', /the file is empty: expected a mapping of groups, such as `all:`/],
  ['syntax.yaml', 'syntax.yaml:5: ', /YAML syntax error: Flow sequence .* end with a \]/],
  [
    'top-list.yaml',
    'top-list.yaml:1: ',
    /expected a mapping of groups at the top level \(such as `all:`\), got a list/,
  ],
  [
    'host-typo.yaml',
    'host-typo.yaml:4: at all.children.tor.host: ',
    /unknown key 'host' in a group: did you mean 'hosts'\?/,
  ],
  [
    'host-not-under-hosts.yaml',
    'host-not-under-hosts.yaml:4: at all.children.tor.tor1: ',
    /if 'tor1' is a host, list it under 'hosts:'/,
  ],
  [
    'hosts-list.yaml',
    'hosts-list.yaml:5: at all.children.tor.hosts: ',
    /'hosts' must be a mapping, got a list: write one `name:` per line/,
  ],
  [
    'bad-port.yaml',
    'bad-port.yaml:7: at all.children.tor.hosts.tor1.ansible_port: ',
    /ansible_port must be a port number from 1 to 65535, got a number \(70000\)/,
  ],
  [
    'port-string.yaml',
    'port-string.yaml:3: at all.vars.ansible_port: ',
    /port number from 1 to 65535, got a string \('ssh'\)/,
  ],
  [
    'cycle.yaml',
    'cycle.yaml:5: at all.children.a.children.b: ',
    /group 'a' would be its own ancestor: a -> b -> c -> a/,
  ],
  ['host-key-list.yaml', 'host-key-list.yaml:3: at all.hosts: ', /a host name must be a string, got a list/],
  [
    'host-key-number.yaml',
    'host-key-number.yaml:3: at all.hosts: ',
    /a host name must be a string, got a number \(1234\): enclose it in quotes/,
  ],
  [
    'bad-group-name.yaml',
    'bad-group-name.yaml:3: at all.children["web servers"]: ',
    /'web servers' cannot be a group name: .*use letters, digits and underscores/,
  ],
  ['bad-host-name.yaml', 'bad-host-name.yaml:3: at all.hosts["web 1"]: ', /'web 1' is not a valid host name/],
  ['empty-range.yaml', 'empty-range.yaml:3: at all.hosts["node[10:1]"]: ', /expands to no host/],
  ['unequal-range.yaml', 'unequal-range.yaml:3: at all.hosts["node[01:100]"]: ', /begin and end of equal length/],
  [
    'group-not-mapping.yaml',
    'group-not-mapping.yaml:3: at all.children.tor: ',
    /expected a group definition \(a mapping with hosts, vars or children\) or nothing, got a list/,
  ],
  [
    'host-vars-list.yaml',
    'host-vars-list.yaml:4: at all.hosts.tor1: ',
    /expected the host's variables as a mapping \(or nothing\), got a list/,
  ],
  [
    'priority.yaml',
    'priority.yaml:5: at all.children.tor.vars.ansible_group_priority: ',
    /must be an integer, got a string \('high'\)/,
  ],
  [
    'bad-env-name.yaml',
    'bad-env-name.yaml:4: at all.hosts.tor1.ansible_password: ',
    /'MY-PASSWORD' is not an environment variable name/,
  ],
  [
    'shell.yaml',
    'shell.yaml:4: at all.hosts.node009.ansible_shell_type: ',
    /'pwsh' is not a shell ansible knows: expected sh, csh, fish, powershell or cmd/,
  ],
  [
    'vault.yaml',
    'vault.yaml:3: at all.vars.ansible_password: ',
    /this !vault value is encrypted with ansible-vault, and no vault password was given: pass --vault-password-file FILE/,
  ],
  [
    'plugin.yaml',
    'plugin.yaml: at plugin: ',
    /inventory plugin configuration; play reads static inventories only \(YAML and INI\): export this one with `ansible-inventory -i .*plugin\.yaml --list --yaml`/,
  ],
  [
    'local.yaml',
    'local.yaml:4: at all.hosts.localhost.ansible_connection: ',
    /local is not supported: play connects over SSH only/,
  ],
];

for (const [file, where, expected] of table) {
  test(`invalid: ${file}`, (t) => {
    const e = t.throws(() => loadInventory(DIR + file), { instanceOf: InventoryError });
    t.true(e.message.startsWith(DIR + where), e.message);
    t.regex(e.message, expected);
    t.is(e.exitCode, 65);
  });
}

test('a missing file is an inventory error naming it', (t) => {
  t.throws(() => loadInventory(DIR + 'missing.yaml'), {
    instanceOf: InventoryError,
    message: `${DIR}missing.yaml: cannot read the inventory (no such file): expected an Ansible inventory file`,
  });
});

test('a literal password is refused without being echoed, and the fix is spelled out', (t) => {
  for (const [file, variable, secret] of [
    ['literal-password.yaml', 'ansible_password', 'Sup3r-s3cret!'],
    ['literal-become.yaml', 'ansible_become_pass', 'become_password'],
  ]) {
    const e = t.throws(() => loadInventory(DIR + file), { instanceOf: InventoryError });
    t.regex(e.message, new RegExp(`at [\\w.]+\\.${variable}: ${variable} is written as a literal value`));
    t.true(
      e.message.includes(
        `write ${variable}: "{{ lookup('env', 'SOME_VAR') }}" and put the value in the environment or in .env`,
      ),
    );
    t.false(e.message.includes(secret));
  }
});

test('winrm is refused with the OpenSSH + PowerShell alternative', (t) => {
  const e = t.throws(() => loadInventory(DIR + 'winrm.yaml'), { instanceOf: InventoryError });
  t.true(e.message.startsWith(`${DIR}winrm.yaml:5: at all.children.windows.vars.ansible_connection: `));
  t.regex(
    e.message,
    /play talks to Windows over OpenSSH; set `ansible_connection: ssh` with `ansible_shell_type: powershell`/,
  );
});

test('all problems of a file are reported at once, in file order', (t) => {
  const e = t.throws(() => loadInventory(DIR + 'many.yaml'), { instanceOf: InventoryError });
  const lines = e.message.split('\n');
  t.is(lines.length, 3);
  t.regex(
    lines[0]!,
    /many\.yaml:5: at all\.children\.tor\.hots: unknown key 'hots' in a group: did you mean 'hosts'\?/,
  );
  t.regex(
    lines[1]!,
    /^ {2}also: .*many\.yaml:10: at all\.children\.windows\.hosts\.node009\.ansible_port: .* got a number \(0\)/,
  );
  t.regex(
    lines[2]!,
    /^ {2}also: .*many\.yaml:11: at all\.children\.windows\.hosts\.node009\.ansible_password: .*literal value/,
  );
  t.false(e.message.includes('hunter2'));
});
