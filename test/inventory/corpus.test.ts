// The inventory corpus (corpus/: YAML and INI files, group_vars/ and host_vars/ files and
// directories, nested groups, priorities, ranges, an inventory directory, several sources, YAML merge
// keys) read by play and by Debian's ansible-core: `--list` and `--host` for every host must be the
// same JSON, compared whole. Without ansible-inventory these tests fail, they never skip.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ansibleJsonText, hostVarsJson, inventoryJson } from '../../runner/inventory/export.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { ansibleInventory, requireAnsible } from './ansible-oracle.js';

const CORPUS = new URL('corpus/', import.meta.url).pathname;
const PLAY = new URL('../../bin/play.mjs', import.meta.url).pathname;
const at = (...names: string[]) => names.map((n) => join(CORPUS, n));

const CASES: Record<string, string[]> = {
  'YAML with group_vars and host_vars (files, directories, all, priorities)': at('yaml-vars/hosts.yml'),
  'INI (no extension) with :vars, :children, inline values and group_vars': at('ini/hosts'),
  'INI named .yaml': at('ini-named.yaml'),
  'an inventory directory (YAML, INI, a subdirectory, skipped files)': at('dir'),
  'YAML merge keys (<<) in variables, vars sections, hosts, groups and a group_vars file': at('merge/hosts.yml'),
  'several sources: a later source group_vars beat an earlier one': at('yaml-vars/hosts.yml', 'ini/hosts', 'dir'),
  'several sources, the other way round': at('dir', 'yaml-vars/hosts.yml'),
};

/** Sorted keys at every level, as both sides print; then compared as parsed values. */
const canonical = (v: unknown) => JSON.parse(ansibleJsonText(v)) as unknown;

for (const [title, sources] of Object.entries(CASES)) {
  test(`--list: ${title}`, async (t) => {
    requireAnsible();
    const expected = await ansibleInventory(sources, ['--list']);
    t.deepEqual(canonical(inventoryJson(loadInventory(sources))), canonical(expected));
  });
}

for (const [title, sources] of Object.entries(CASES).slice(0, 5)) {
  test(`--host, every host: ${title}`, async (t) => {
    requireAnsible();
    const inv = loadInventory(sources);
    t.true(inv.hosts.length > 0);
    const expected = await Promise.all(inv.hosts.map((h) => ansibleInventory(sources, ['--host', h.name])));
    t.deepEqual(
      inv.hosts.map((h) => canonical(hostVarsJson(h))),
      expected.map(canonical),
    );
  });
}

test('the play inventory command prints what ansible-inventory prints', async (t) => {
  requireAnsible();
  const sources = CASES['several sources: a later source group_vars beat an earlier one']!;
  const args = sources.flatMap((s) => ['-i', s]);
  const run = (extra: string[]) =>
    spawnSync(process.execPath, [PLAY, 'inventory', ...args, ...extra], { encoding: 'utf8' });
  const list = run(['--list']);
  t.is(list.status, 0, list.stderr);
  t.deepEqual(JSON.parse(list.stdout), await ansibleInventory(sources, ['--list']));
  const host = run(['--host', 'web2']);
  t.is(host.status, 0, host.stderr);
  t.deepEqual(JSON.parse(host.stdout), await ansibleInventory(sources, ['--host', 'web2']));
  // A secret stays the lookup it is written as.
  t.regex(run(['--host', 'node009']).stdout, /"vrrp_auth_pass": "\{\{ lookup\('env', 'VRRP_PASSWORD'\) \}\}"/);
});

test('play warns about what ansible passes over in silence', (t) => {
  const inv = loadInventory(CASES['several sources, the other way round']!);
  const warnings = (inv.warnings ?? []).map((w) => w.replaceAll(CORPUS, 'corpus/'));
  t.deepEqual(warnings, [
    'corpus/dir/site/group_vars: not read: ansible reads group_vars and host_vars only beside an inventory source (here corpus/dir), not in its subdirectories',
    'corpus/dir: not read, as ansible skips them in an inventory directory: 03-skipped.ini, README.md (rename an INI inventory without .ini to have it read)',
    "corpus/yaml-vars/group_vars/nosuchgroup.yml: not read: there is no group named 'nosuchgroup' in the inventory (ansible ignores it too)",
    'corpus/yaml-vars/group_vars/web.yml: not read: group_vars/web is read instead (ansible reads only the first of web, web.yml, web.yaml, web.json)',
    'corpus/yaml-vars/group_vars/web/notes.txt: not read: group_vars/web/notes.txt is not a vars file (ansible reads files with no extension or .yml, .yaml, .json only)',
  ]);
});
