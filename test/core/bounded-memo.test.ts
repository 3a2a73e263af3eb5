// boundedMemo: each argument computed once while kept; past the bound, everything is forgotten.
import test from 'ava';
import { boundedMemo } from '../../runner/core/bounded-memo.js';

test('an argument is computed once while kept, and anew after the bound cleared what was kept', (t) => {
  const computed: string[] = [];
  const upper = boundedMemo((s: string) => {
    computed.push(s);
    return s.toUpperCase();
  }, 2);
  const answers = ['a', 'b', 'a', 'b', 'c', 'a', 'c'].map(upper);
  t.deepEqual(answers, ['A', 'B', 'A', 'B', 'C', 'A', 'C']);
  // 'c' found two kept and cleared them; then 'a' was new again, and 'c' still kept.
  t.deepEqual(computed, ['a', 'b', 'c', 'a']);
});

test('the same value is handed to every caller, as kept', (t) => {
  const box = boundedMemo((n: number) => ({ n }), 8);
  t.is(box(1), box(1));
  t.not(box(1), box(2));
});
