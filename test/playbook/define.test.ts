// `needs` and `triggeredBy` are checked by the TypeScript compiler: the @ts-expect-error lines below
// fail `tsc --noEmit` (run by CI before the tests) if a typo ever stops being a compile error.
import test from 'ava';
import { command, directory } from '../../tasks/linux/index.js';
import { definePlaybook } from '../../runner/playbook/define.js';
import { taskOrder } from '../../runner/playbook/compile.js';
import { InputError } from '../../runner/core/errors.js';

const step = directory({ path: '/srv/x' });

test('a typo in needs is a compile error, and a runtime error for untyped playbooks', (t) => {
  const ok = definePlaybook({
    name: 'p',
    description: '',
    tasks: { a: { on: 'all', step }, b: { on: 'all', step, needs: ['a'] } },
  });
  t.deepEqual(taskOrder(ok), ['a', 'b']);
  const typo = definePlaybook({
    name: 'p',
    description: '',
    // @ts-expect-error 'c' is not a task of this playbook
    tasks: { a: { on: 'all', step }, b: { on: 'all', step, needs: ['c'] } },
  });
  t.throws(() => taskOrder(typo), {
    instanceOf: InputError,
    message: /task 'b' needs 'c', which is not a task of this playbook \(tasks: a, b\)/,
  });
  // @ts-expect-error triggeredBy is checked too
  definePlaybook({ name: 'p', description: '', tasks: { a: { on: 'all', step, triggeredBy: ['nope'] } } });
});

test('ordering comes from needs; a cycle is refused naming its tasks', (t) => {
  const pb = definePlaybook({
    name: 'p',
    description: '',
    tasks: { late: { on: 'all', step, needs: ['early'] }, early: { on: 'all', step } },
  });
  t.deepEqual(taskOrder(pb), ['early', 'late']);
  const cycle = definePlaybook({
    name: 'p',
    description: '',
    tasks: { a: { on: 'all', step, needs: ['b'] }, b: { on: 'all', step, needs: ['a'] } },
  });
  t.throws(() => taskOrder(cycle), { message: /tasks a, b depend on each other in a cycle/ });
});

test('outputs are typed by the step of the task they come from, and read only from earlier blocks', (t) => {
  const pb = definePlaybook({
    name: 'p',
    description: '',
    tasks: {
      probe: { on: 'all', step: command({ command: ['uname', '-r'] }) },
      // @ts-expect-error a task of the first block reads no outputs: there is no block above it
      early: { on: 'all', needs: ['probe'], step: ({ output }) => directory({ path: output('probe').stdout }) },
    },
  }).andThen({
    // output('probe') is CommandOutputs: stdout a string, no cast, no type argument.
    dir: { on: 'all', needs: ['probe'], step: ({ output }) => directory({ path: `/srv/${output('probe').stdout}` }) },
    // @ts-expect-error not a field of CommandOutputs
    typo: { on: 'all', needs: ['probe'], step: ({ output }) => directory({ path: output('probe').stdot }) },
    // @ts-expect-error 'dir' is in this block, not above it: its outputs are not readable here
    same: { on: 'all', needs: ['dir'], step: ({ output }) => directory({ path: String(output('dir')) }) },
    late: { on: 'all', needs: ['probe', 'early'], step }, // needs may name tasks of this block and above
  });
  t.deepEqual(Object.keys(pb.tasks), ['probe', 'early', 'dir', 'typo', 'same', 'late']);
  t.deepEqual(taskOrder(pb), ['probe', 'early', 'dir', 'typo', 'same', 'late']);
  t.throws(() => pb.andThen({ dir: { on: 'all', step } }), {
    instanceOf: InputError,
    message: 'playbook p: task ids defined twice: dir',
  });
});
