// The batch planner: serial sizes, failure domains capped per batch, hosts passed over and where they
// land. Each row is a whole plan.
import test from 'ava';
import { planBatches } from '../../runner/rolling/batches.js';
import type { BatchPlan, PlanHost, SerialStep } from '../../runner/rolling/model.js';

/** 'a1:a b1:b n1:-' -> hosts in that order; '-' is no domain. */
const hosts = (spec: string): PlanHost[] =>
  spec.split(' ').map((h) => {
    const [name, domain] = h.split(':') as [string, string];
    return { name, domain: domain === '-' ? null : domain };
  });

const deferred = (host: string, domain: string, fromBatch: number, toBatch: number) => ({
  host,
  domain,
  fromBatch,
  toBatch,
});

// Long because it is a table of whole plans.
test('planBatches, whole plans', (t) => {
  const table: [name: string, hosts: string, steps: SerialStep[], maxPerDomain: number | null, plan: BatchPlan][] = [
    [
      'no domain limit: serial alone, inventory order',
      'n1:a n2:a n3:b n4:b n5:c',
      [2],
      null,
      { batches: [['n1', 'n2'], ['n3', 'n4'], ['n5']], deferred: [] },
    ],
    [
      // canary [a1]; then batches of 3 (50% of 6), one per domain: a2 b1 (a3 passed over, then b2 and
      // b3), a3 b2 (b3 passed over again), b3 alone: the last size is min(3, 1 left)
      'a,a,a,b,b,b with [1, 50%], one per domain',
      'a1:a a2:a a3:a b1:b b2:b b3:b',
      [1, '50%'],
      1,
      {
        batches: [['a1'], ['a2', 'b1'], ['a3', 'b2'], ['b3']],
        deferred: [deferred('a3', 'a', 2, 3), deferred('b2', 'b', 2, 3), deferred('b3', 'b', 2, 4)],
      },
    ],
    [
      'interleaved domains fill every batch: nothing passed over',
      'a1:a b1:b c1:c a2:a b2:b c2:c',
      [3],
      1,
      {
        batches: [
          ['a1', 'b1', 'c1'],
          ['a2', 'b2', 'c2'],
        ],
        deferred: [],
      },
    ],
    [
      'interleaved but uneven: later hosts fill the room the limit leaves',
      'a1:a a2:a b1:b a3:a c1:c b2:b',
      [3],
      1,
      {
        batches: [['a1', 'b1', 'c1'], ['a2', 'b2'], ['a3']],
        deferred: [deferred('a2', 'a', 1, 2), deferred('a3', 'a', 1, 3)],
      },
    ],
    [
      'hosts without a domain are never limited',
      'n1:- n2:- a1:a a2:a n3:-',
      [4],
      1,
      {
        batches: [['n1', 'n2', 'a1', 'n3'], ['a2']],
        deferred: [deferred('a2', 'a', 1, 2)],
      },
    ],
    [
      'two per domain',
      'a1:a a2:a a3:a a4:a b1:b b2:b',
      [4],
      2,
      {
        batches: [
          ['a1', 'a2', 'b1', 'b2'],
          ['a3', 'a4'],
        ],
        deferred: [deferred('a3', 'a', 1, 2), deferred('a4', 'a', 1, 2)],
      },
    ],
    [
      'all in one domain: batches of one whatever serial says',
      'a1:a a2:a a3:a',
      [3],
      1,
      {
        batches: [['a1'], ['a2'], ['a3']],
        deferred: [deferred('a2', 'a', 1, 2), deferred('a3', 'a', 1, 3)],
      },
    ],
    [
      'a short batch carries nothing over: the next batch takes the next size',
      'a1:a a2:a b1:b b2:b',
      [3, 1],
      1,
      {
        batches: [['a1', 'b1'], ['a2'], ['b2']],
        deferred: [deferred('a2', 'a', 1, 2), deferred('b2', 'b', 1, 3)],
      },
    ],
    [
      'a host passed over twice keeps its first batch in fromBatch',
      'a1:a a2:a a3:a b1:b',
      [2],
      1,
      {
        batches: [['a1', 'b1'], ['a2'], ['a3']],
        deferred: [deferred('a2', 'a', 1, 2), deferred('a3', 'a', 1, 3)],
      },
    ],
    [
      'a full batch stops the walk: hosts after it are not passed over',
      'a1:a b1:b a2:a c1:c',
      [2],
      1,
      {
        batches: [
          ['a1', 'b1'],
          ['a2', 'c1'],
        ],
        deferred: [],
      },
    ],
    ['no hosts', '', [1], 1, { batches: [], deferred: [] }],
  ];
  t.deepEqual(
    table.map(([name, spec, steps, max]) => [
      name,
      spec,
      steps,
      max,
      planBatches(spec === '' ? [] : hosts(spec), steps, max),
    ]),
    table,
  );
});
