// The nonces that frame output: 18 hex digits of the system's generator, none handed out twice, also
// across the refills of the buffer they are taken from.
import test from 'ava';
import { createHash } from 'node:crypto';
import { pathKey } from '../../runner/core/content-read.js';
import { newNonce } from '../../runner/core/nonce.js';

test('nonces are 18 hex digits and distinct across several refills of their buffer', (t) => {
  const nonces = Array.from({ length: 2000 }, () => newNonce());
  t.true(nonces.every((n) => /^[0-9a-f]{18}$/.test(n)));
  t.is(new Set(nonces).size, nonces.length);
});

test("a path's key is its digest's first 16 hex digits, the same when asked again", (t) => {
  const paths = ['/etc/sysctl.d/90-play.conf', "/srv/it's here", '/proc/sys/net/ipv4/ip_forward'];
  const digest = (p: string) => createHash('sha256').update(p).digest('hex').slice(0, 16);
  t.deepEqual(paths.map(pathKey), paths.map(digest));
  t.deepEqual(paths.map(pathKey), paths.map(digest));
});
