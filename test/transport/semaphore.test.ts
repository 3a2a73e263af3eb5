// The counting semaphore of channels and handshakes: at most `limit` slots held, waiters served in the
// order they came, a release given twice frees one slot, and the counters the throttle reads.
import test from 'ava';
import { type Release, Semaphore } from '../../runner/transport/semaphore.js';

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('slots are held up to the limit and handed to waiters first come, first served', async (t) => {
  const s = new Semaphore(2);
  const order: string[] = [];
  const releases = new Map<string, Release>();
  for (const name of ['a', 'b', 'c', 'd', 'e'])
    void s.acquire().then((release) => {
      order.push(name);
      releases.set(name, release);
    });
  await settle();
  t.deepEqual([order, s.active, s.waiting, s.idle], [['a', 'b'], 2, 3, false]);
  releases.get('b')!();
  releases.get('b')!(); // idempotent: frees one slot, not two
  await settle();
  t.deepEqual([order, s.active, s.waiting], [['a', 'b', 'c'], 2, 2]);
  releases.get('a')!();
  releases.get('c')!();
  await settle();
  t.deepEqual([order, s.active, s.waiting], [['a', 'b', 'c', 'd', 'e'], 2, 0]);
  releases.get('d')!();
  releases.get('e')!();
  await settle();
  t.deepEqual([s.active, s.waiting, s.idle, s.peak], [0, 0, true, 2]);
});

test('a limit that is not a positive integer is refused', (t) => {
  for (const limit of [0, -1, 1.5, Number.NaN])
    t.throws(() => new Semaphore(limit), { instanceOf: RangeError, message: /positive integer/ });
});
