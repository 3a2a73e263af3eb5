// Hostile inventories through loadInventory: what is not a regular file, a link loop or a
// directory that contains itself, an oversized file, alias bombs. Each is one error naming the
// file (exit 65), never a hang, a stack overflow or gigabytes of memory. Messages compared whole,
// the temporary directory shown as D.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InputError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';

const ONE_HOST = 'all:\n  children:\n    linux:\n      hosts:\n        a:\n';

/** `depth` levels of anchors, each a list of nine aliases of the one before: 9^depth strings. */
function laughs(depth: number): string {
  const lines = ['all:', '  vars:', '    l0: &l0 [lol]'];
  for (let i = 1; i <= depth; i++)
    lines.push(
      `    l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n  hosts:\n    a:\n`;
}

/** The same with groups: each level's children are nine aliases of the level before. */
function groupLaughs(depth: number): string {
  const lines = ['all:', '  children:', '    g0: &g0', '      hosts: {a: }'];
  for (let i = 1; i <= depth; i++) {
    const children = Array.from({ length: 9 }, (_, k) => `g${i}_${k}: *g${i - 1}`).join(', ');
    lines.push(`    g${i}: &g${i}`, `      children: {${children}}`);
  }
  return `${lines.join('\n')}\n`;
}

type Setup = (dir: string) => void;

const files =
  (entries: Record<string, string>): Setup =>
  (dir) => {
    for (const [name, text] of Object.entries(entries)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
  };

const table: [string, Setup, string, string][] = [
  [
    'a FIFO as the inventory',
    (d) => execFileSync('mkfifo', [join(d, 'inv.yaml')]),
    'inv.yaml',
    'D/inv.yaml: is a named pipe (FIFO), not a regular file: expected an inventory file',
  ],
  [
    'an inventory over 64 MiB (sparse: refused by its size)',
    (d) => {
      writeFileSync(join(d, 'inv.yaml'), '');
      truncateSync(join(d, 'inv.yaml'), 64 * 1024 * 1024 + 1);
    },
    'inv.yaml',
    'D/inv.yaml: is 64 MiB, more than the 64 MiB play reads from an inventory file: ' +
      'split it into several files of an inventory directory',
  ],
  [
    'a host_vars file that is a link to /dev/zero',
    (d) => {
      files({ 'inv.yaml': ONE_HOST })(d);
      mkdirSync(join(d, 'host_vars'));
      symlinkSync('/dev/zero', join(d, 'host_vars', 'a'));
    },
    'inv.yaml',
    'D/host_vars/a: is a character device, not a regular file: expected a vars file',
  ],
  [
    'a symbolic link loop inside an inventory directory',
    (d) => {
      files({ 'inv/hosts.yml': ONE_HOST })(d);
      symlinkSync('l2', join(d, 'inv', 'l1'));
      symlinkSync('l1', join(d, 'inv', 'l2'));
    },
    'inv',
    'D/inv/l1: is a symbolic link loop (a link that leads back to itself): remove it or point it at a file',
  ],
  [
    'a link in an inventory directory back to the directory',
    (d) => {
      files({ 'inv/hosts.yml': ONE_HOST })(d);
      symlinkSync('.', join(d, 'inv', 'again'));
    },
    'inv',
    'D/inv/again: is a symbolic link loop: it leads back to D/inv, which contains it, so the walk would never end: remove the link',
  ],
  [
    'a symbolic link loop in group_vars, named after a group',
    (d) => {
      files({ 'inv.yaml': ONE_HOST })(d);
      mkdirSync(join(d, 'group_vars'));
      symlinkSync('linux.yml', join(d, 'group_vars', 'linux.yml'));
    },
    'inv.yaml',
    'D/group_vars/linux.yml: is a symbolic link loop (a link that leads back to itself): remove it or point it at a file',
  ],
  [
    "a link in a group's vars directory back to the directory",
    (d) => {
      files({ 'inv.yaml': ONE_HOST, 'group_vars/linux/main.yml': 'x: 1\n' })(d);
      symlinkSync('..', join(d, 'group_vars', 'linux', 'up'));
    },
    'inv.yaml',
    'D/group_vars/linux/up: is a symbolic link loop: it leads back to D/group_vars, which contains it, so the walk would never end: remove the link',
  ],
  [
    'a group_vars that is a link loop',
    (d) => {
      files({ 'inv.yaml': ONE_HOST })(d);
      symlinkSync('group_vars', join(d, 'group_vars'));
    },
    'inv.yaml',
    'D/group_vars: is a symbolic link loop (a link that leads back to itself): remove it or point it at a file',
  ],
  [
    'a "billion laughs" alias bomb in a variable',
    files({ 'inv.yaml': laughs(9) }),
    'inv.yaml',
    'D/inv.yaml:6: at all.vars.l3: YAML aliases expand this value too far (aliases of aliases, more than 100 expansions): write the value out',
  ],
  [
    'an alias bomb in the groups',
    files({ 'inv.yaml': groupLaughs(12) }),
    'inv.yaml',
    'D/inv.yaml:14: YAML aliases expand the groups and hosts of this file past 10,000,000 entries (aliases of aliases multiply): write the groups out rather than nesting aliases',
  ],
  [
    'nesting 3,000 deep',
    files({ 'inv.yaml': `all:\n  vars:\n    x: ${'['.repeat(3000)}${']'.repeat(3000)}\n` }),
    'inv.yaml',
    'D/inv.yaml:3: YAML nested more than 100 levels deep: flatten the structure (an inventory needs a few levels, not hundreds)',
  ],
];

for (const [title, setup, source, message] of table) {
  test(title, (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'play-inv-limits-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    setup(dir);
    const e = t.throws(() => loadInventory(join(dir, source)), { instanceOf: InputError });
    t.is(e.message.replaceAll(dir, 'D'), message);
    t.is(e.exitCode, 65);
  });
}

test('a FIFO or a device inside an inventory directory is not read, with a warning', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-inv-limits-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  files({ 'inv/hosts.yml': ONE_HOST })(dir);
  execFileSync('mkfifo', [join(dir, 'inv', 'pipe')]);
  symlinkSync('/dev/zero', join(dir, 'inv', 'zero'));
  const inventory = loadInventory(join(dir, 'inv'));
  t.deepEqual(
    [inventory.hosts.map((h) => h.name), inventory.warnings?.map((w) => w.replaceAll(dir, 'D'))],
    [['a'], ['D/inv: not read, as they are not regular files (a pipe, a socket or a device): pipe, zero']],
  );
});

test('aliases within the limits still work: a host and a group written once, aliased', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-inv-limits-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  files({
    'inv.yaml':
      'all:\n  children:\n    web:\n      hosts:\n        w1: &h {port_x: 1, dns: &dns [a, b]}\n        w2: *h\n' +
      '    db:\n      hosts: {d1: {dns: *dns}}\n    web2: *web_group\n'.replace('*web_group', '{hosts: {w3: *h}}'),
  })(dir);
  const inventory = loadInventory(join(dir, 'inv.yaml'));
  t.deepEqual(
    inventory.hosts.map((h) => [h.name, h.vars.port_x ?? null, h.vars.dns]),
    [
      ['w1', 1, ['a', 'b']],
      ['w2', 1, ['a', 'b']],
      ['d1', null, ['a', 'b']],
      ['w3', 1, ['a', 'b']],
    ],
  );
});
