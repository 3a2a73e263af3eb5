// `needs` and `triggeredBy` are checked by the TypeScript compiler: the @ts-expect-error lines below
// fail `tsc --noEmit` (run by CI before the tests) if a typo ever stops being a compile error.
import test from 'ava';
import { directory } from '../../tasks/linux/index.js';
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
