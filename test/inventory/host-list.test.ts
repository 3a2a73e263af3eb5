// `-i 'h1,h2,'`: a source that is no path and has a comma is a list of hosts (ansible's host_list
// plugin): each name or address, with an optional :port, into `ungrouped`, unless an earlier source
// defined it; no group_vars. Compared whole with ansible-inventory (--list, and --host for every host).
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { ansibleJsonText, hostVarsJson, inventoryJson } from '../../runner/inventory/export.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { ansibleInventory, requireAnsible } from './ansible-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'play-host-list-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'web.yml');
writeFileSync(file, 'all:\n  children:\n    web:\n      vars: { tier: web }\n      hosts:\n        h1: { x: 1 }\n');

const canonical = (v: unknown) => JSON.parse(ansibleJsonText(v)) as unknown;

const CASES: Record<string, string[]> = {
  'names, a port, addresses, blanks between commas': ['h1, h2:2222,,10.0.0.5,[2001:db8::1]:2200,db-1.example.com,'],
  'one host and its trailing comma': ['solo,'],
  'after a file: a host it defined stays in its groups, with its vars': [file, 'h1,h3,'],
  'before a file: the file adds the listed host to its group': ['h1,h3,', file],
};

for (const [title, sources] of Object.entries(CASES)) {
  test(title, async (t) => {
    requireAnsible();
    const inv = loadInventory(sources);
    t.deepEqual(canonical(inventoryJson(inv)), canonical(await ansibleInventory(sources, ['--list'])));
    for (const host of inv.hosts)
      t.deepEqual(
        canonical(hostVarsJson(host)),
        canonical(await ansibleInventory(sources, ['--host', host.name])),
        host.name,
      );
  });
}

test('what is not a host name is refused, naming the list (ansible would take it as a name)', (t) => {
  const e = t.throws(() => loadInventory(['h1,web[1:3],bad host,']), { instanceOf: InventoryError });
  t.is(
    e.message,
    "-i h1,web[1:3],bad host,: 'web[1:3]' is not a host name or address (optionally with :port); a host list takes no ranges or patterns" +
      "\n  also: -i h1,web[1:3],bad host,: 'bad host' is not a host name or address (optionally with :port); a host list takes no ranges or patterns",
  );
});
