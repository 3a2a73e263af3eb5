// windows.timeZone (this folder): its option error, its diff, and its three runs against the
// simulated node (Get-TimeZone and Set-TimeZone are part of the node's shared Windows surface).
import test from 'ava';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { timeZone } from './step.js';

test('option errors name the field and say what is wanted', (t) => {
  const e = t.throws(() => timeZone({ id: 'China Standard Time; Restart-Computer' }), { instanceOf: StepOptionError });
  t.like(e, { kind: 'windows.timeZone', field: 'id' });
  t.is(
    e!.message,
    'windows.timeZone: option \'id\' must be a Windows time zone id such as China Standard Time or UTC (see Get-TimeZone -ListAvailable), got the string "China Standard Time; Restart-Computer"',
  );
});

test('diff: the zone differs, or is the same', (t) => {
  const step = timeZone({ id: 'China Standard Time' });
  t.deepEqual(
    [{ id: 'UTC' }, { id: 'China Standard Time' }].map((actual) => step.diff(step.desired, actual)),
    [
      { action: 'update', fields: ['id'], before: { id: 'UTC' }, after: { id: 'China Standard Time' } },
      { action: 'noop', fields: [], before: null, after: null },
    ],
  );
});

test('three runs on a simulated node: set, then nothing to do', async (t) => {
  const { n } = simulatedNode(t);
  const runs = await threeRuns(n, timeZone({ id: 'China Standard Time' }));
  t.deepEqual(runs.first.fields, ['id']);
});
