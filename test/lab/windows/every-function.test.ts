// Every remote function (the list comes from tasks/windows/remote/functions.ts, so a new one cannot be
// forgotten) runs under real PowerShell against the simulated Windows surface: its happy path and its
// main failure (function-cases.ts), each on a fresh node.
import test from 'ava';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import { FUNCTION_CASES } from './function-cases.js';
import { closingLine, runEveryFunction } from './every-function.js';

test('every remote function has cases, and no case names a function that does not exist', (t) => {
  t.deepEqual(Object.keys(FUNCTION_CASES).sort(), Object.keys(PLAY_FUNCTIONS).sort());
});

test('every remote function runs under real PowerShell: happy path and main failure', async (t) => {
  const { version, outcomes } = await runEveryFunction();
  const failed = outcomes.filter((o) => o.problem !== null).map((o) => `${o.fn} (${o.kind}): ${o.problem}`);
  t.deepEqual(failed, []);
  const n = Object.keys(PLAY_FUNCTIONS).length;
  t.is(closingLine(version, outcomes), `PowerShell ${version}: ${n}/${n} functions ran`);
});
