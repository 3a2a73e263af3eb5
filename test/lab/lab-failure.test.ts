// A lab that fails to come up (or go down) says what failed in one message, exit 71: each failure the lab
// meets, as it reaches withLabFailure, against the whole message a user reads. Pure: no lab is touched.
import test from 'ava';
import { LabCommandError } from '../../lab/exec.js';
import { inPart, LabFailure, labParts, withLabFailure } from '../../lab/lab-failure.js';
import { PlayError, UsageError } from '../../runner/index.js';

const DIR = '/var/lib/play-lab';
const LOGS = `logs: ${DIR}/hosts/HOST/sshd.log, ${DIR}/hosts/HOST/simulator.log, ${DIR}/cluster-api/server.log`;
const AGAIN = 'to fix: run `play lab down`, then `play lab up`';

function errno(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/** What `play lab ACTION` throws when `part` fails with `error` (no part: a failure outside every part). */
async function failure(action: 'up' | 'down', part: ReturnType<typeof labParts.whole> | undefined, error: unknown) {
  const work = () => Promise.reject(error);
  try {
    await withLabFailure(action, DIR, part ? () => inPart(part, work) : work);
  } catch (e) {
    return e;
  }
  throw new Error('withLabFailure did not throw');
}

async function shown(action: 'up' | 'down', part: ReturnType<typeof labParts.whole> | undefined, error: unknown) {
  const e = await failure(action, part, error);
  if (!(e instanceof LabFailure)) throw new Error(`not a LabFailure: ${String(e)}`);
  return { code: e.exitCode, message: e.message };
}

test('each failure of lab up and down, as the one message a user reads (exit 71)', async (t) => {
  const cases: [string, Awaited<ReturnType<typeof shown>>][] = [];
  const add = async (
    name: string,
    action: 'up' | 'down',
    part: ReturnType<typeof labParts.whole> | undefined,
    error: unknown,
  ) => {
    cases.push([name, await shown(action, part, error)]);
  };
  await add(
    'a namespace that cannot be created (a failed child process)',
    'up',
    labParts.network(),
    new LabCommandError(
      ['/usr/sbin/ip', '-batch', '-'],
      1,
      'Cannot create namespace file "/run/netns/linux3": File exists\nCommand failed -:4\n',
    ),
  );
  await add(
    'an sshd that does not start, its log ending with why',
    'up',
    labParts.sshd(DIR, 'linux3'),
    new Error(
      `linux3: sshd started but did not come up (3 tries)\n${DIR}/hosts/linux3/sshd.log:\nServer listening on 198.18.0.13 port 22.\nBad configuration option: Foo`,
    ),
  );
  await add(
    'a simulator that exits because its port is held',
    'up',
    labParts.windows(DIR, 'node009'),
    new Error(
      `node009: the simulated Windows node did not come up\n${DIR}/hosts/node009/simulator.log:\nsimulated Windows node: listen EADDRINUSE: address already in use 198.18.2.9:22`,
    ),
  );
  await add(
    'an Error with a cause: the Kubernetes API double',
    'up',
    labParts.api(DIR),
    new Error('the API double did not start', { cause: errno('listen EADDRINUSE 198.18.0.5:6443', 'EADDRINUSE') }),
  );
  await add(
    'a missing binary',
    'up',
    labParts.sshd(DIR, 'linux1'),
    new LabCommandError(['/usr/sbin/ip', 'netns', 'exec', 'linux1'], 'ENOENT', 'spawn /usr/sbin/ip ENOENT'),
  );
  await add(
    'no permission',
    'down',
    labParts.network(),
    new LabCommandError(['/usr/sbin/ip', 'link', 'del', 'playlab0'], 2, 'RTNETLINK answers: Operation not permitted'),
  );
  await add(
    'the lock held by another lab command',
    'up',
    labParts.lock(),
    new Error('another play lab command has held /run/play-lab/lock for 600 s; see the pid in that file'),
  );
  await add(
    'lab down: a simulated Windows node that will not stop',
    'down',
    labParts.windows(DIR, 'node010'),
    new Error('node010: kill ESRCH'),
  );
  t.deepEqual(cases, [
    [
      'a namespace that cannot be created (a failed child process)',
      {
        code: 71,
        message: [
          'lab up failed: the lab network (bridges, namespaces, veths, routes): /usr/sbin/ip -batch - failed (exit 1): Cannot create namespace file "/run/netns/linux3": File exists',
          `  ${LOGS}`,
          `  ${AGAIN}`,
        ].join('\n'),
      },
    ],
    [
      'an sshd that does not start, its log ending with why',
      {
        code: 71,
        message: [
          'lab up failed: the sshd of linux3: sshd started but did not come up (3 tries)',
          `  log: ${DIR}/hosts/linux3/sshd.log (last line: Bad configuration option: Foo)`,
          `  ${AGAIN}`,
        ].join('\n'),
      },
    ],
    [
      'a simulator that exits because its port is held',
      {
        code: 71,
        message: [
          'lab up failed: the simulated Windows node node009: the simulated Windows node did not come up',
          `  log: ${DIR}/hosts/node009/simulator.log (last line: simulated Windows node: listen EADDRINUSE: address already in use 198.18.2.9:22)`,
          '  to fix: another process holds the address and port: find it with `ss -ltnp`, stop it, then run `play lab down`, then `play lab up`',
        ].join('\n'),
      },
    ],
    [
      'an Error with a cause: the Kubernetes API double',
      {
        code: 71,
        message: [
          'lab up failed: the Kubernetes API double on control1: the API double did not start: listen EADDRINUSE 198.18.0.5:6443',
          `  log: ${DIR}/cluster-api/server.log`,
          '  to fix: another process holds the address and port: find it with `ss -ltnp`, stop it, then run `play lab down`, then `play lab up`',
        ].join('\n'),
      },
    ],
    [
      'a missing binary',
      {
        code: 71,
        message: [
          'lab up failed: the sshd of linux1: /usr/sbin/ip netns exec linux1 failed (ENOENT): spawn /usr/sbin/ip ENOENT',
          `  log: ${DIR}/hosts/linux1/sshd.log`,
          "  to fix: /usr/sbin/ip is missing: install the lab's packages with `bash scripts/install-system.sh`, then run `play lab down`, then `play lab up`",
        ].join('\n'),
      },
    ],
    [
      'no permission',
      {
        code: 71,
        message: [
          'lab down failed: the lab network (bridges, namespaces, veths, routes): /usr/sbin/ip link del playlab0 failed (exit 2): RTNETLINK answers: Operation not permitted',
          `  ${LOGS}`,
          '  to fix: the lab needs root allowed to create network namespaces (outside a restricted container), then run `play lab down` again (it removes only what is left); if it fails the same way, remove what it names by hand',
        ].join('\n'),
      },
    ],
    [
      'the lock held by another lab command',
      {
        code: 71,
        message: [
          "lab up failed: the lab's lock (/run/play-lab/lock): another play lab command has held /run/play-lab/lock for 600 s; see the pid in that file",
          `  ${LOGS}`,
          '  to fix: wait for the other play lab command (its pid is in /run/play-lab/lock), then run `play lab up` again',
        ].join('\n'),
      },
    ],
    [
      'lab down: a simulated Windows node that will not stop',
      {
        code: 71,
        message: [
          'lab down failed: the simulated Windows node node010: kill ESRCH',
          `  log: ${DIR}/hosts/node010/simulator.log`,
          '  to fix: run `play lab down` again (it removes only what is left); if it fails the same way, remove what it names by hand',
        ].join('\n'),
      },
    ],
  ]);
});

test('a failure of an unknown kind outside every part still names the lab, the logs and the fix, with no trace', async (t) => {
  const bug = new TypeError("Cannot read properties of undefined (reading 'hosts')");
  t.deepEqual(await shown('up', undefined, bug), {
    code: 71,
    message: [
      "lab up failed: the lab: Cannot read properties of undefined (reading 'hosts')",
      `  ${LOGS}`,
      `  ${AGAIN}`,
    ].join('\n'),
  });
  t.deepEqual(await shown('down', undefined, 42), {
    code: 71,
    message: [
      'lab down failed: the lab: 42',
      `  ${LOGS}`,
      '  to fix: run `play lab down` again (it removes only what is left); if it fails the same way, remove what it names by hand',
    ].join('\n'),
  });
  const e = await failure('up', undefined, bug);
  t.true(e instanceof PlayError, 'main.ts prints a PlayError as its message, without a trace');
  t.is((e as LabFailure).cause, bug, 'the original error stays as the cause');
});

test('the narrowest part wins, and a user error passes through as it is', async (t) => {
  const inner = await failure(
    'up',
    labParts.whole(),
    await inPart(labParts.sshd(DIR, 'tor2'), () => Promise.reject(new Error('boom'))).catch((e: unknown) => e),
  );
  t.is((inner as Error).message.split('\n')[0], 'lab up failed: the sshd of tor2: boom');
  const usage = new UsageError('--linux 5000: at most 4000');
  t.is(await failure('up', labParts.network(), usage), usage);
});
