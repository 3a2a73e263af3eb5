// YAML merge keys that cannot merge: what ansible's loader refuses (a scalar or a list of scalars
// after `<<`) is one message naming the file, the line and the path; a mapping that merges itself is
// refused where ansible's loader recurses until it crashes. What merges is compared with
// ansible-inventory in corpus.test.ts (corpus/merge/).
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { InventoryError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';

const MERGE = 'a merge key (<<) takes a mapping or a list of mappings';

/** [title, files, the whole message (the temporary directory as D/)]. */
const table: [string, Record<string, string>, string][] = [
  [
    'a scalar after <<, in a variable',
    { 'inv.yml': 'all:\n  vars:\n    x:\n      <<: 1\n  hosts:\n    h1:\n' },
    `D/inv.yml:4: at all.vars.x.<<: ${MERGE}, got a scalar`,
  ],
  [
    'a list holding a list after <<',
    { 'inv.yml': 'all:\n  vars:\n    x: {<<: [{a: 1}, [2]]}\n  hosts:\n    h1:\n' },
    `D/inv.yml:3: at all.vars.x.<<: ${MERGE}, got a list`,
  ],
  [
    'a scalar merged into a group',
    { 'inv.yml': 'all:\n  children:\n    web:\n      <<: web1\n' },
    `D/inv.yml:4: at all.children.web.<<: ${MERGE}, got a scalar`,
  ],
  [
    "a group's hosts that merge themselves",
    { 'inv.yml': 'all:\n  hosts: &h\n    h1:\n    <<: *h\n' },
    'D/inv.yml:4: at all.hosts: this mapping merges itself through a YAML alias',
  ],
  [
    'a scalar merged at the top of a group_vars file',
    { hosts: '[web]\nw1\n', 'group_vars/web.yml': 'a: 1\n<<: nothing\n' },
    `D/group_vars/web.yml:2: at <<: ${MERGE}, got a scalar`,
  ],
];

for (const [title, files, message] of table) {
  test(title, (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'play-merge-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const source = join(dir, Object.keys(files)[0]!);
    const e = t.throws(() => loadInventory(source), { instanceOf: InventoryError });
    t.is(e.message.replaceAll(dir, 'D'), message);
    t.is(e.exitCode, 65);
  });
}
