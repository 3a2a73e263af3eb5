// A playbook whose task does not give a step is the playbook's mistake: the CLI (compiled, as a user
// runs it) exits 65 with one line naming the task, the playbook and, where the error shows it, the
// file and line; never 70 ("a bug in play") with a stack trace. Before any host is touched (the
// inventory's address is TEST-NET-1, which nothing answers).
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { play } from '../helpers/play.js';

const dirs: string[] = [];
test.after.always('remove the folders', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A repository with playbooks/pb.ts whose one task `cfg` has this step source, and one host. */
function repo(step: string, imports = "import { directory } from 'play/linux';"): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-user-step-'));
  dirs.push(dir);
  const files: Record<string, string> = {
    'package.json': '{ "type": "module" }\n',
    'inventory.yml': 'all:\n  hosts:\n    h1:\n      ansible_host: 192.0.2.1\n',
    'playbooks/pb.ts': [
      "import { definePlaybook } from 'play';",
      imports,
      'export default definePlaybook({',
      "  name: 'broken',",
      "  description: 'a task that gives no step',",
      `  tasks: { cfg: { on: 'all', step: ${step} } },`,
      '});',
      '',
    ].join('\n'),
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const CASES: { name: string; step: string; stderr: string | RegExp }[] = [
  {
    name: 'a step function that forgets return',
    step: "({ host }) => { directory({ path: '/srv/' + host.name }); }",
    stderr:
      "play: task 'cfg' of playbook broken for host h1: the step function returned undefined (a missing `return`?), not a step: return one, e.g. `step: ({ host }) => file({ ... })`\n",
  },
  {
    name: 'a step function that returns a non-step',
    step: "() => ({ path: '/srv' }) as never",
    stderr:
      "play: task 'cfg' of playbook broken for host h1: the step function returned an object with path, not a step: return one, e.g. `step: ({ host }) => file({ ... })`\n",
  },
  {
    name: 'an async step function',
    step: "(async () => directory({ path: '/srv' })) as never",
    stderr:
      /^play: task 'cfg' of playbook broken for host h1: the step function returned a Promise \(a step function must not be async/,
  },
  {
    name: 'a step function that throws a TypeError',
    step: '({ host }) => directory({ path: (host.vars.app_dir as string).trim() })',
    stderr:
      /^play: task 'cfg' of playbook broken for host h1: the step function threw TypeError: Cannot read properties of undefined \(reading 'trim'\) \(at playbooks\/pb\.ts:6:\d+\)\n$/,
  },
  {
    name: 'an option of the wrong type that slipped past the types',
    step: '() => directory({ path: 42 as never })',
    stderr: "play: task 'cfg' for host h1: linux.directory: option 'path' must be a string, got number 42\n",
  },
];

for (const c of CASES) {
  test(`${c.name}: exit 65, one line naming the task and the playbook`, async (t) => {
    const r = await play(['playbooks/pb.ts', '-i', 'inventory.yml', '--check'], {}, repo(c.step));
    t.is(r.code, 65, r.stderr);
    if (typeof c.stderr === 'string') t.is(r.stderr, c.stderr);
    else t.regex(r.stderr, c.stderr);
    t.notRegex(r.stderr, /bug in play|    at /);
  });
}
