// The pidfile service manager for real (root only): keepalived started, judged, restarted and
// stopped inside throwaway network namespaces, through the step's own scripts run by
// `ip netns exec NS /bin/sh -c` (local-remote.ts), as the lab's hosts would run them over SSH.
import test from 'ava';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteError } from '../../../runner/core/errors.js';
import { renderKeepalivedConf, validateKeepalivedConfig } from '../../../tasks/linux/keepalived-model.js';
import { keepalivedPidfile } from '../../../tasks/linux/keepalived-pidfile.js';
import { service, type ServiceActual, type ServiceOptions } from '../../../tasks/linux/service.js';
import { labConfig } from './keepalived-fixtures.js';
import { converge, localHost, plan, removeHosts, type LocalHost } from './local-remote.js';
import { canNetns, makeNetns, netnsInode, netnsOf } from './netns.js';
import { waitFor } from '../../helpers/wait.js';
import { VRRP_SETTLE_MS } from '../../helpers/vrrp.js';

const realTest = canNetns ? test : test.skip;
test.after.always('remove the temp directories', removeHosts);

/** Alive as the step judges it: /proc/PID/exe readable (a zombie has none). */
function alive(pid: number): boolean {
  return spawnSync('readlink', [`/proc/${pid}/exe`]).status === 0;
}

/** A host (namespace) with a keepalived.conf whose VIP is `vip`, and the service options for it. */
function torHost(
  t: Parameters<typeof makeNetns>[0],
  vip: string,
): { ns: string; h: LocalHost; pidfile: NonNullable<ServiceOptions['pidfile']> } {
  const ns = makeNetns(t);
  const h = localHost(['ip', 'netns', 'exec', ns]);
  const conf = join(h.root, 'keepalived.conf');
  writeFileSync(conf, renderKeepalivedConf(validateKeepalivedConfig(labConfig([vip])).config).reveal(), {
    mode: 0o640,
  });
  return { ns, h, pidfile: keepalivedPidfile({ runDir: join(h.root, 'run'), conf }) };
}

realTest('keepalived: start, noop, restart (new pid), stop; it really serves the VIP', async (t) => {
  const { ns, h, pidfile } = torHost(t, '198.18.6.1');
  const running = service({ name: 'keepalived', state: 'running', pidfile });

  let started = Date.now();
  const up = await converge(h, running);
  const startMs = Date.now() - started;
  t.deepEqual([...up.change.fields], ['state']);
  t.is(up.rest.action, 'noop');
  const pid = (up.outputs as { pid: number }).pid;
  t.true(Number.isInteger(pid));
  t.is(readFileSync(pidfile.pidFile, 'utf8').trim(), String(pid));
  t.is(netnsOf(pid), netnsInode(ns));
  t.is(execFileSync('readlink', [`/proc/${pid}/exe`], { encoding: 'utf8' }).trim(), '/usr/sbin/keepalived');
  const again = await plan(h, running);
  t.is(again.change.action, 'noop');
  t.deepEqual(running.outputs!(running.desired, again.actual), { pid });
  // Our renderer's config works: alone, this BACKUP becomes master and adds the VIP.
  const { ms: vipMs } = await waitFor(
    'VIP 198.18.6.1 on eth1',
    () => execFileSync('ip', ['-n', ns, '-4', 'addr', 'show', 'eth1'], { encoding: 'utf8' }).includes('198.18.6.1/24'),
    VRRP_SETTLE_MS,
  );

  started = Date.now();
  const restart = service({ name: 'keepalived', state: 'running', pidfile, restart: true });
  const r = await plan(h, restart);
  t.is(r.change.action, 'run');
  const { pid: newPid } = (await restart.apply(h, r.change, r.actual, restart.desired)) as { pid: number };
  const restartMs = Date.now() - started;
  t.not(newPid, pid);
  t.false(alive(pid));
  t.true(alive(newPid));
  t.is(netnsOf(newPid), netnsInode(ns));

  started = Date.now();
  const down = await converge(h, service({ name: 'keepalived', state: 'stopped', pidfile }));
  const stopMs = Date.now() - started;
  t.deepEqual(down.change.before, { state: `running (pid ${newPid})` });
  t.is(down.rest.action, 'noop');
  t.deepEqual(down.outputs, { pid: null });
  t.false(alive(newPid));
  t.false(existsSync(pidfile.pidFile), 'keepalived removed its pidfile');
  t.true(readFileSync(pidfile.logFile!, 'utf8').includes('Starting Keepalived'), 'the daemon logs to the log file');
  t.log(`start ${startMs} ms (VIP after ${vipMs} ms more), restart ${restartMs} ms, stop ${stopMs} ms`);
});

realTest(
  'stale pidfiles: keepalived of another namespace, another program, a dead pid are not running; start clears them',
  async (t) => {
    const other = torHost(t, '198.18.7.1');
    const otherUp = await converge(other.h, service({ name: 'keepalived', state: 'running', pidfile: other.pidfile }));
    const foreign = (otherUp.outputs as { pid: number }).pid;

    const { ns, h, pidfile } = torHost(t, '198.18.6.1');
    const s = service({ name: 'keepalived', state: 'running', pidfile });
    mkdirSync(join(h.root, 'run'));
    // As on the lab, where /run is shared: this host's pidfiles name the other host's live keepalived.
    for (const f of [pidfile.pidFile, ...pidfile.extraPidFiles!]) writeFileSync(f, `${foreign}\n`);
    const stale = await plan(h, s);
    t.like(stale.actual, { running: false, pid: null });
    t.regex(
      (stale.actual as ServiceActual).detail,
      new RegExp(`pid ${foreign} from .* runs in another network namespace`),
    );
    t.is(stale.change.action, 'update');

    // A live process of this namespace that is not keepalived (a reused pid).
    const sleeper = spawn('ip', ['netns', 'exec', ns, 'sleep', '60'], { stdio: 'ignore' });
    t.teardown(() => {
      sleeper.kill('SIGKILL');
    });
    await waitFor(
      'sleep in the namespace',
      () =>
        alive(sleeper.pid!) &&
        execFileSync('readlink', [`/proc/${sleeper.pid}/exe`], { encoding: 'utf8' }).includes('sleep'),
      5000,
    );
    writeFileSync(pidfile.pidFile, `${sleeper.pid}\n`);
    t.regex(((await plan(h, s)).actual as ServiceActual).detail, /is \/usr\/bin\/sleep, not \/usr\/sbin\/keepalived/);
    // A pid that has exited.
    const gone = spawnSync('true').pid!;
    writeFileSync(pidfile.pidFile, `${gone}\n`);
    t.regex(((await plan(h, s)).actual as ServiceActual).detail, new RegExp(`pid ${gone} from .* is not running`));

    // keepalived itself refuses to start while a pidfile names a live pid ("daemon is already
    // running"): the start must clear the stale ones, the extra pidfiles included.
    writeFileSync(pidfile.pidFile, `${foreign}\n`);
    const up = await converge(h, s);
    t.is(up.rest.action, 'noop');
    const pid = (up.outputs as { pid: number }).pid;
    t.not(pid, foreign);
    t.is(netnsOf(pid), netnsInode(ns));
    t.true(alive(foreign), "the other host's keepalived was not touched");
    t.is(readFileSync(other.pidfile.pidFile, 'utf8').trim(), String(foreign));
  },
);

realTest('a daemon that dies at once: start fails after the bound with the end of its log', async (t) => {
  const { h } = torHost(t, '198.18.6.1');
  const s = service({
    name: 'broken',
    state: 'running',
    pidfile: {
      command: ['/bin/sh', '-c', 'echo "broken: cannot bind" >&2; exit 3'],
      pidFile: join(h.root, 'run', 'broken.pid'),
      logFile: join(h.root, 'broken.log'),
    },
  });
  const { actual, change } = await plan(h, s);
  const err = await t.throwsAsync(() => s.apply(h, change, actual, s.desired), { instanceOf: RemoteError });
  t.regex(
    err!.message,
    /broken did not start: after 5 s .*broken\.pid names no live \/bin\/sh in this network namespace/,
  );
  t.regex(err!.message, /broken: cannot bind/);
});

realTest('a daemon that ignores SIGTERM is killed after the bound, and its pidfile removed', async (t) => {
  const { h } = torHost(t, '198.18.6.1');
  const pidFile = join(h.root, 'run', 'stubborn.pid');
  // sh writes its pid and becomes sleep (an ignored signal stays ignored across exec).
  const pidfile = {
    command: ['/bin/sh', '-c', `trap '' TERM; echo $$ > "$0"; exec sleep 300`, pidFile],
    pidFile,
    exe: '/usr/bin/sleep',
  };
  const up = await converge(h, service({ name: 'stubborn', state: 'running', pidfile }));
  const pid = (up.outputs as { pid: number }).pid;
  t.true(alive(pid));
  const down = await converge(h, service({ name: 'stubborn', state: 'stopped', pidfile }));
  t.is(down.rest.action, 'noop');
  t.false(alive(pid), 'SIGTERM was ignored, so only the KILL after the bound can have ended it');
  t.false(existsSync(pidFile));
});
