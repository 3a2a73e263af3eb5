// The systemd manager's scripts, run for real against a stand-in `systemctl` (this machine has no
// systemd). Each script runs in a private mount namespace with a tmpfs on /run holding
// /run/systemd/system, so the probe's detection sees "systemd" there and nowhere else (root only).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RemoteError } from '../../../runner/core/errors.js';
import { service } from '../../../tasks/linux/service.js';
import { converge, localHost, plan, removeHosts } from './local-remote.js';

const canUnshare = process.getuid?.() === 0 && spawnSync('unshare', ['-m', 'true']).status === 0;
const realTest = canUnshare ? test : test.skip;
test.after.always('remove the temp directories', removeHosts);

const FAKE_SYSTEMD = [
  'unshare',
  '-m',
  '--propagation',
  'private',
  '/bin/sh',
  '-c',
  'mount -t tmpfs play-run /run && mkdir -p /run/systemd/system && exec "$@"',
  'fake-systemd',
];

// Units live in $STATE/<unit>.{load,active,enabled,pid}; every call is logged to $STATE/calls.
const SYSTEMCTL = `#!/bin/sh
S="$PLAY_STATE"
echo "$*" >> "$S/calls"
get() { cat "$S/$1.$2" 2>/dev/null; }
bump() { echo $(( $(get "$1" pid) + 1 )) > "$S/$1.pid"; }
start() {
  if [ -e "$S/$1.fail" ]; then echo "Job for $1.service failed because the control process exited with error code." >&2; echo failed > "$S/$1.active"; exit 1; fi
  [ "$(get "$1" active)" = active ] || { echo active > "$S/$1.active"; bump "$1"; }
}
cmd=$1; shift
case $cmd in
  show) u=$4; case $2 in LoadState) get "$u" load || echo not-found ;; MainPID) if [ "$(get "$u" active)" = active ]; then get "$u" pid; else echo 0; fi ;; esac ;;
  is-active) if [ "$1" = --quiet ]; then shift; [ "$(get "$1" active)" = active ]; exit; fi; a=$(get "$1" active); echo "\${a:-inactive}"; [ "$a" = active ] ;;
  is-enabled) e=$(get "$1" enabled); echo "$e"; [ "$e" = enabled ] ;;
  enable) if [ "$1" = --now ]; then shift; start "$1"; fi; echo enabled > "$S/$1.enabled" ;;
  disable) if [ "$1" = --now ]; then shift; echo inactive > "$S/$1.active"; fi; echo disabled > "$S/$1.enabled" ;;
  start) start "$1" ;;
  stop) echo inactive > "$S/$1.active" ;;
  restart) echo active > "$S/$1.active"; bump "$1" ;;
  status) echo "x $1.service - stand-in"; echo "   Active: $(get "$1" active)" ;;
  *) echo "stand-in systemctl: $cmd?" >&2; exit 2 ;;
esac
`;

function fakeHost(units: Record<string, Record<string, string>>) {
  const state = mkdtempSync(join(tmpdir(), 'play-systemd-'));
  const h = localHost(FAKE_SYSTEMD);
  writeFileSync(join(h.root, '..', 'bin', 'systemctl'), SYSTEMCTL.replace('"$PLAY_STATE"', `'${state}'`));
  chmodSync(join(h.root, '..', 'bin', 'systemctl'), 0o755);
  for (const [unit, files] of Object.entries(units)) {
    for (const [k, v] of Object.entries(files)) writeFileSync(join(state, `${unit}.${k}`), `${v}\n`);
  }
  const calls = () => readFileSync(join(state, 'calls'), 'utf8').trim().split('\n');
  return { h, state, calls, cleanup: () => rmSync(state, { recursive: true, force: true }) };
}

realTest('systemd: enable --now from stopped, then noop; restart gives a new MainPID; disable --now', async (t) => {
  const f = fakeHost({ keepalived: { load: 'loaded', active: 'inactive', enabled: 'disabled', pid: '100' } });
  t.teardown(f.cleanup);
  const up = service({ name: 'keepalived', state: 'running', enabled: true });
  const first = await converge(f.h, up);
  t.deepEqual([...first.change.fields], ['state', 'enabled']);
  t.is(first.rest.action, 'noop');
  t.deepEqual(first.outputs, { pid: 101 });
  t.true(f.calls().includes('enable --now keepalived'));
  t.false(
    f.calls().some((c) => c.startsWith('start ')),
    'one enable --now, no separate start',
  );

  const restart = service({ name: 'keepalived', state: 'running', enabled: true, restart: true });
  const r = await plan(f.h, restart);
  t.deepEqual([...r.change.fields], ['restart']);
  t.deepEqual(await restart.apply(f.h, r.change, r.actual, restart.desired), { pid: 102 });
  t.true(f.calls().includes('restart keepalived'));

  const down = await converge(f.h, service({ name: 'keepalived', state: 'stopped', enabled: false }));
  t.deepEqual([...down.change.fields], ['state', 'enabled']);
  t.is(down.rest.action, 'noop');
  t.deepEqual(down.outputs, { pid: null });
  t.true(f.calls().includes('disable --now keepalived'));
});

realTest(
  'systemd: a unit that fails to start fails the step with its status; a missing unit is warned about',
  async (t) => {
    const f = fakeHost({ keepalived: { load: 'loaded', active: 'inactive', enabled: 'enabled', pid: '1', fail: '' } });
    t.teardown(f.cleanup);
    const s = service({ name: 'keepalived', state: 'running' });
    const { actual, change } = await plan(f.h, s);
    t.deepEqual([...change.fields], ['state']);
    const err = await t.throwsAsync(() => s.apply(f.h, change, actual, s.desired), { instanceOf: RemoteError });
    t.regex(err!.message, /Job for keepalived\.service failed/);

    const missing = await plan(f.h, service({ name: 'nosuchd', state: 'running' }));
    t.like(missing.actual, { manager: 'systemd', missing: true, running: false });
    t.regex(missing.change.warnings![0]!, /systemd has no unit nosuchd on this host/);
  },
);

(existsSync('/run/systemd/system') ? test.skip : test)(
  'without systemd and without pidfile options: the probe says why, the plan warns',
  async (t) => {
    const h = localHost(); // this machine: no /run/systemd/system
    const { actual, change } = await plan(h, service({ name: 'keepalived', state: 'running' }));
    t.like(actual, { manager: null, detail: 'systemd is not running on this host and no pidfile options were given' });
    t.deepEqual(change.warnings, [
      'systemd is not running on this host and no pidfile options were given: apply will fail',
    ]);
  },
);
