// threeRuns (exported from 'play'): the three verdicts over any Remote, here a value held in memory
// that a sh probe reads and an apply writes. Each way a step can break the rule is named.
import test from 'ava';
import { diffFields } from '../../runner/core/change.js';
import { Script, sh } from '../../runner/core/quote.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { planOn, threeRuns } from '../../runner/testing/three-runs.js';

type V = { value: string };

/** A host holding one value ('' is absent); its probe exits `probeCode`. */
function memoryHost(value: string, probeCode = 0): Remote & { value: string } {
  return {
    name: 'mem1',
    value,
    async run(script) {
      if (script.text.startsWith('set ')) this.value = script.text.slice(4);
      return { code: probeCode, stdout: this.value, stderr: probeCode ? 'no such file' : '' };
    },
  };
}

/** A step wanting `want`; `writes`: what its apply writes (a broken step writes something else). */
function valueStep(want: string, writes = want, reprobeDrifts = false): Step<V, V> {
  let probes = 0;
  return {
    kind: 'mem.value',
    title: `value ${want}`,
    desired: { value: want },
    probe: () => ({
      script: sh`get`,
      parse: (r) => {
        probes++;
        // A step whose second run sees something new (a probe that is not stable).
        if (reprobeDrifts && probes > 3) return { value: `${r.stdout}!` };
        return r.stdout === '' ? null : { value: r.stdout };
      },
    }),
    diff: (d, a) => diffFields(d, a, ['value']),
    async apply(remote) {
      await remote.run(new Script('sh', `set ${writes}`));
    },
  };
}

test('the three verdicts, and each broken rule named', async (t) => {
  const outcome = async (step: Step<V, V>, host: Remote) =>
    threeRuns(step, host).then(
      (r) => ['ok', r.check.action, r.apply.fields.join(','), r.again.action],
      (e: Error) => [e.name, e.message],
    );
  t.deepEqual(
    [
      await outcome(valueStep('b'), memoryHost('')),
      await outcome(valueStep('b'), memoryHost('a')),
      await outcome(valueStep('b'), memoryHost('b')),
      await outcome(valueStep('b', 'c'), memoryHost('a')),
      await outcome(valueStep('b', 'b', true), memoryHost('a')),
      await outcome(valueStep('b'), memoryHost('a', 2)),
    ],
    [
      ['ok', 'create', 'value', 'noop'],
      ['ok', 'update', 'value', 'noop'],
      ['ThreeRunsError', 'value b: check found nothing to change on mem1: the test proves nothing'],
      ['ThreeRunsError', 'value b: not converged: value'],
      ['ThreeRunsError', 'value b: the second run would change value'],
      ['ThreeRunsError', 'value b: the probe failed on mem1 (exit 2): no such file'],
    ],
  );
});

test('planOn: the probe and the pure diff, nothing applied', async (t) => {
  const host = memoryHost('a');
  t.deepEqual(await planOn(valueStep('b'), host), {
    actual: { value: 'a' },
    change: { action: 'update', fields: ['value'], before: { value: 'a' }, after: { value: 'b' } },
  });
  t.is(host.value, 'a');
});
