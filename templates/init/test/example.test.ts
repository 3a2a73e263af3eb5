// The example playbook's plan, without any host: the playbook compiled against inventory/ and each
// step built as `play` builds it before it connects. A change to the playbook or to the inventory's
// variables that changes what would be done on a host changes this table, and fails the test.
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { compileGraph, InputError, loadInventory, prebuildSteps } from 'play';
import example from '../playbooks/example.js';

const inventory = loadInventory(fileURLToPath(new URL('../inventory', import.meta.url)));

test('example: one row per task and host, with what its step manages', (t) => {
  const graph = compileGraph(example, inventory);
  const steps = prebuildSteps(graph, inventory);
  t.deepEqual(
    graph.nodes.map((n) => [n.task, n.target.name, steps.get(n.id)?.title, n.deps.map((d) => d.task)]),
    [
      ['dir', 'web1', 'directory /srv/example', []],
      ['config', 'web1', 'file /srv/example/app.conf', ['dir']],
      ['port', 'web1', 'line in /srv/example/settings.ini', ['dir']],
      ['winPort', 'win1', 'registry value HKLM:\\SOFTWARE\\Example\\Port', []],
    ],
  );
  t.like(steps.get('port@web1')?.desired, { line: 'port=8080' });
  t.like(steps.get('winPort@win1')?.desired, { value: '8080' });
});

test('a port out of range is refused before any host is touched, naming the host and the variable', (t) => {
  const graph = compileGraph(example, inventory);
  t.throws(() => prebuildSteps(graph, inventory, { app_port: '70000' }), {
    instanceOf: InputError,
    message: /app_port of web1 must be an integer 1-65535, got "70000"/,
  });
});
