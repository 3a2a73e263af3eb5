// Variable precedence: all < parent group < child group < host; groups of one depth ordered by
// ansible_group_priority, then name, later winning. Checked by hand on the rules, then against
// `ansible-inventory --host` for every host of the fixture.
import test from 'ava';
import { loadInventory } from '../../runner/inventory/load.js';
import { EnvRef } from '../../runner/inventory/model.js';
import { ansibleHostVars, requireAnsible } from './ansible-oracle.js';

const FILE = new URL('fixtures/precedence.yaml', import.meta.url).pathname;
const inv = loadInventory(FILE);
const vars = (host: string) => inv.host(host)!.vars;

test('host > child > parent > all', (t) => {
  t.is(vars('h1').level, 'host-again'); // h1's own value, from its later mention
  t.is(vars('h2').level, 'child');
  t.is(vars('h2').from_parent, 'parent');
  t.is(vars('h2').from_all, 'all');
  t.deepEqual(vars('h2').settings, { a: 2 }); // replaced, not merged with all's {a: 1, b: 1}
});

test('same depth: higher ansible_group_priority wins, then the later name', (t) => {
  t.is(vars('h2').sibling, 'alpha'); // alpha (priority 10) after beta and parent (priority 1)
  t.is(vars('h3').by_name, 'zeta'); // zeta after eta and beta, same priority
  t.is(vars('h3').level, 'alpha');
  t.is(vars('h3').sibling, 'deep'); // depth 2 beats every depth-1 group, priority or not
  t.false('ansible_group_priority' in vars('h2')); // a group property, not a variable (as in ansible)
});

test('host groups: all, then the rest in precedence order', (t) => {
  t.deepEqual(inv.host('h2')!.groups, ['all', 'beta', 'parent', 'alpha', 'child']);
  t.deepEqual(inv.host('h3')!.groups, ['all', 'beta', 'deep-parent', 'eta', 'zeta', 'alpha', 'deep']);
  t.deepEqual(inv.groups.get('all')!.children, [
    'ungrouped',
    'parent',
    'alpha',
    'beta',
    'zeta',
    'eta',
    'deep-parent',
    'late',
  ]);
  t.deepEqual(inv.groups.get('parent')!.hosts, ['h1', 'h2']);
});

test('env lookups become EnvRefs; the port of a host key is a host variable', (t) => {
  t.deepEqual(vars('h1').token, new EnvRef('PLAY_TEST_TOKEN'));
  t.is(vars('h4').ansible_port, 2222);
  t.is(inv.host('h4')!.connection.port, 2222);
});

test('what ansible would warn about is collected as warnings', (t) => {
  t.is(vars('h1').templated, '{{ level }}-x');
  const warnings = inv.warnings!.join('\n');
  t.regex(warnings, /precedence\.yaml:\d+: at all\.vars\.templated: play does not evaluate Jinja2 templates/);
  t.regex(warnings, /at all\.children\.deep-parent: 'deep-parent' is not a valid Ansible group name/);
  t.is(inv.warnings!.length, 2);
});

test("oracle: every host's variables equal ansible-inventory --host", async (t) => {
  requireAnsible();
  const all = await Promise.all(inv.hosts.map(async (h) => [h.name, await ansibleHostVars(FILE, h.name)] as const));
  t.is(all.length, 4);
  for (const [name, theirs] of all) {
    t.deepEqual(JSON.parse(JSON.stringify(vars(name))), theirs, name);
  }
});
