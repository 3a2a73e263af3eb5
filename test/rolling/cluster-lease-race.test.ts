// The cluster Lease's writes against a kubectl that answers in turn: a write another controller beat
// (409 Conflict, AlreadyExists) is read and written again, at most three writes in all; any other
// failure is not retried. The commands run are compared whole.
import test from 'ava';
import { RemoteError } from '../../runner/core/errors.js';
import type { ExecResult, Remote } from '../../runner/core/step.js';
import { ClusterLease } from '../../runner/rolling/cluster-lease.js';

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
