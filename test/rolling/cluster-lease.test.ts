// The cluster's rollout Lease, pure part (runner/rolling/cluster-lease.ts): who holds it at a time, and
// the object a holder writes (taking, renewing, releasing), compared whole.
import test from 'ava';
import { judgeClusterLease, type LeaseObject, leaseFor, microTime } from '../../runner/rolling/cluster-lease.js';

const T = new Date('2026-11-23T10:00:00.000Z');
const at = (s: number) => new Date(T.getTime() + s * 1000);
const lease = (holder: string | null, renew: Date, duration = 30, rv = '41'): LeaseObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'play-rollout', namespace: 'kube-system', resourceVersion: rv },
  spec: {
    holderIdentity: holder,
    leaseDurationSeconds: duration,
    acquireTime: microTime(T),
    renewTime: microTime(renew),
    leaseTransitions: 2,
  },
});

test('who holds it: absent, released or expired is free; our holder is ours; another live one holds it', (t) => {
  const rows: [string, LeaseObject | null, Date, unknown][] = [
    ['absent', null, T, { kind: 'free' }],
    ['released', lease(null, T), at(1), { kind: 'free' }],
    ['ours', lease('run 1 of store a', T), at(100), { kind: 'ours' }],
    [
      'another, renewed 10 s ago',
      lease('run 7 of store b', at(-10)),
      T,
      {
        kind: 'held',
        holder: 'run 7 of store b',
        renewTime: '2026-11-23T09:59:50.000000Z',
        expiresAt: '2026-11-23T10:00:20.000Z',
      },
    ],
    ['another, expired at exactly now', lease('run 7 of store b', at(-30)), T, { kind: 'free' }],
  ];
  t.deepEqual(
    rows.map(([what, obj, now]) => [what, judgeClusterLease(obj, 'run 1 of store a', now)]),
    rows.map(([what, , , expected]) => [what, expected]),
  );
});

test('the object written: a new Lease, a renewal, a takeover (transitions + 1), a release keeps the rest', (t) => {
  t.deepEqual(leaseFor(null, 'me', 30, T), {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'play-rollout', namespace: 'kube-system' },
    spec: {
      holderIdentity: 'me',
      leaseDurationSeconds: 30,
      acquireTime: '2026-11-23T10:00:00.000000Z',
      renewTime: '2026-11-23T10:00:00.000000Z',
      leaseTransitions: 0,
    },
  });
  t.deepEqual(leaseFor(lease('me', T), 'me', 30, at(10)).spec, {
    holderIdentity: 'me',
    leaseDurationSeconds: 30,
    acquireTime: '2026-11-23T10:00:00.000000Z',
    renewTime: '2026-11-23T10:00:10.000000Z',
    leaseTransitions: 2,
  });
  const taken = leaseFor(lease('them', T), 'me', 30, at(40));
  t.deepEqual(taken.metadata, { name: 'play-rollout', namespace: 'kube-system', resourceVersion: '41' });
  t.deepEqual(taken.spec, {
    holderIdentity: 'me',
    leaseDurationSeconds: 30,
    acquireTime: '2026-11-23T10:00:40.000000Z',
    renewTime: '2026-11-23T10:00:40.000000Z',
    leaseTransitions: 3,
  });
  t.deepEqual(leaseFor(lease('me', T), 'me', 30, at(5), true).spec, { ...lease('me', T).spec, holderIdentity: null });
});
