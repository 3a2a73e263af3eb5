import test from 'ava';
import { inspect } from 'node:util';
import { MASK, Secret, masked, redact } from '../../runner/core/secret.js';

test('a secret is masked when printed, serialized or inspected', (t) => {
  const s = new Secret('p@ss-w0rd', 'env:ADMIN_PW');
  t.is(String(s), MASK);
  t.is(`${s}`, MASK);
  t.is(JSON.stringify({ s }), `{"s":"${MASK}"}`);
  t.false(inspect({ s }).includes('p@ss-w0rd'));
  t.is(s.reveal(), 'p@ss-w0rd');
});

test('redact scrubs revealed values from foreign text; masked walks objects', (t) => {
  const s = new Secret('correct-horse', 'env:X');
  t.is(redact('error: correct-horse rejected'), 'error: correct-horse rejected'); // not revealed yet
  s.reveal();
  t.is(redact('error: correct-horse rejected'), `error: ${MASK} rejected`);
  t.deepEqual(masked({ a: [s, 'x correct-horse'], b: 1, c: null }), { a: [MASK, `x ${MASK}`], b: 1, c: null });
});
