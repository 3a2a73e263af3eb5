// The cluster Lease's writes against a kubectl that answers in turn: a write another controller beat
// (409 Conflict, AlreadyExists) is read and written again, at most three writes in all; any other
// failure is not retried. A renewal writes only over a Lease that names the run. The commands run are
// compared whole.
import test from 'ava';
import { RemoteError } from '../../runner/core/errors.js';
import type { ExecResult, Remote } from '../../runner/core/step.js';
import { PlayError } from '../../runner/core/errors.js';
import { ClusterLease, type LeaseObject, microTime } from '../../runner/rolling/cluster-lease.js';

const NOT_FOUND: ExecResult = { code: 1, stdout: '', stderr: 'Error from server (NotFound): leases "play-rollout"' };
const CONFLICT: ExecResult = {
  code: 1,
  stdout: '',
  stderr: 'Error from server (Conflict): the object has been modified',
};
const FORBIDDEN: ExecResult = { code: 1, stdout: '', stderr: 'Error from server (Forbidden): leases is forbidden' };
const OK: ExecResult = { code: 0, stdout: '', stderr: '' };

/** A control host whose kubectl gives `writes` in turn to create/replace; the Lease is never there. */
function control(writes: ExecResult[]) {
  const commands: string[] = [];
  const remote: Remote = {
    name: 'control1',
    run: async (script) => {
      const text = String(script);
      commands.push(text.includes(' get lease ') ? 'get' : 'create');
      return text.includes(' get lease ') ? NOT_FOUND : (writes.shift() ?? OK);
    },
  };
  return { remote, commands };
}

async function acquire(writes: ExecResult[]): Promise<[string[], string]> {
  const { remote, commands } = control(writes);
  const lease = new ClusterLease(remote, 'kubectl', 'run 1 of store a', 30, () => new Date('2026-11-23T10:00:00Z'));
  try {
    await lease.acquire();
    return [commands, 'acquired'];
  } catch (e) {
    if (!(e instanceof RemoteError)) throw e;
    return [commands, e.message];
  }
}

test('a raced write is read and written again, three writes at most; other failures at once', async (t) => {
  const failed = (why: string) =>
    `kubectl create lease kube-system/play-rollout on control1 failed (exit 1): Error from server (${why}`;
  const table: [what: string, writes: ExecResult[], commands: string[], outcome: string][] = [
    ['first write', [OK], ['get', 'create'], 'acquired'],
    ['raced once', [CONFLICT, OK], ['get', 'create', 'get', 'create'], 'acquired'],
    ['raced twice', [CONFLICT, CONFLICT, OK], ['get', 'create', 'get', 'create', 'get', 'create'], 'acquired'],
    [
      'raced three times',
      [CONFLICT, CONFLICT, CONFLICT, OK],
      ['get', 'create', 'get', 'create', 'get', 'create'],
      failed('Conflict): the object has been modified'),
    ],
    ['forbidden: not retried', [FORBIDDEN, OK], ['get', 'create'], failed('Forbidden): leases is forbidden')],
  ];
  const got = [];
  for (const [what, writes] of table) got.push([what, writes, ...(await acquire([...writes]))]);
  t.deepEqual(got, table);
});

test('a renewal renews a Lease that names the run; released, deleted or taken, it stops the run (69) and writes nothing', async (t) => {
  const NOW = new Date('2026-11-23T10:00:00Z');
  const HOLDER = 'play run 2 of store a';
  const lease = (holder: string | null, renewedSecAgo = 5): LeaseObject => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'play-rollout', namespace: 'kube-system', resourceVersion: '7' },
    spec: {
      holderIdentity: holder,
      leaseDurationSeconds: 30,
      renewTime: microTime(new Date(NOW.getTime() - renewedSecAgo * 1000)),
    },
  });
  async function renew(current: LeaseObject | null): Promise<[string[], string]> {
    const commands: string[] = [];
    const remote: Remote = {
      name: 'control1',
      run: async (script) => {
        const get = String(script).includes(' get lease ');
        commands.push(get ? 'get' : String(script).includes(' replace ') ? 'replace' : 'create');
        if (!get) return OK;
        return current ? { code: 0, stdout: JSON.stringify(current), stderr: '' } : NOT_FOUND;
      },
    };
    try {
      await new ClusterLease(remote, 'kubectl', HOLDER, 30, () => NOW).renew();
      return [commands, 'renewed'];
    } catch (e) {
      if (!(e instanceof PlayError)) throw e;
      return [commands, `exit ${e.exitCode}: ${e.message}`];
    }
  }
  const released = (why: string) =>
    "exit 69: the cluster's rollout lease (Lease kube-system/play-rollout, read on control1) no longer names " +
    `${HOLDER}: ${why}; this controller stops`;
  const table: [what: string, current: LeaseObject | null, commands: string[], outcome: string][] = [
    ['ours', lease(HOLDER), ['get', 'replace'], 'renewed'],
    ['ours, past its duration (nobody took it)', lease(HOLDER, 60), ['get', 'replace'], 'renewed'],
    [
      'released by the controller that finished the run',
      lease(null),
      ['get'],
      released('it was released: another controller finished the run'),
    ],
    ['deleted', null, ['get'], released('the Lease was deleted')],
    [
      'another holder whose lease ran out',
      lease('play run 9 of store b', 60),
      ['get'],
      released(
        'it names play run 9 of store b, whose time ran out (renewed 2026-11-23T09:59:00.000000Z): another controller took it and let it lapse',
      ),
    ],
    [
      'another holder',
      lease('play run 9 of store b'),
      ['get'],
      "exit 69: the cluster's rollout lease (Lease kube-system/play-rollout, read on control1) is held by play run 9 " +
        'of store b, renewed 2026-11-23T09:59:55.000000Z, expires 2026-11-23T10:00:25.000Z: another controller, ' +
        'perhaps with another state store, is rolling this cluster; see kubectl get lease -n kube-system play-rollout',
    ],
  ];
  const got = [];
  for (const [what, current] of table) got.push([what, current, ...(await renew(current))]);
  t.deepEqual(got, table);
});
