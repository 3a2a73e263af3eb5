// What the Linux probes cost on a host, and why the sysctl live value is read by a program: the
// bench playbook's five probes, batched as the runner batches them, run under strace with the local
// /bin/sh against a converged copy of its files in a temp directory. Read-only: /proc is only read.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { sysctl } from '../../../tasks/linux/index.js';
import type { SysctlActual } from '../../../tasks/linux/sysctl.js';
import { normalizeSysctlValue } from '../../../tasks/linux/sysctl-d-file.js';
import { benchSteps, convergeBenchFiles, liveForward } from './bench-steps.js';
import { localHost, probeAll, removeHosts } from './local-remote.js';

const logDir = mkdtempSync(join(tmpdir(), 'play-strace-'));

test.after.always('remove the temp directories', () => {
  removeHosts();
  rmSync(logDir, { recursive: true, force: true });
});

test('the bench probes on a converged host exec one stat for all four paths and base64 four times (three files and the live value), nothing else', async (t) => {
  const strace = spawnSync('strace', ['-V']);
  t.is(strace.status, 0, 'strace is needed to count the programs a probe runs');
  const forward = liveForward();
  const log = join(logDir, 'execve.log');
  const h = localHost(['strace', '-f', '-qq', '-e', 'trace=execve', '-e', 'signal=none', '-o', log]);
  const root = join(h.root, 'srv');
  convergeBenchFiles(root);
  const steps = benchSteps(root);
  const actual = await probeAll(h, steps);
  t.deepEqual(
    steps.map((s, i) => s.diff(s.desired as never, actual[i] as never).action),
    ['noop', 'noop', 'noop', 'noop', 'noop'],
  );
  t.is((actual[4] as SysctlActual).live, forward);
  const programs = [...readFileSync(log, 'utf8').matchAll(/execve\("([^"]+)"/g)].map((m) => basename(m[1]!));
  // The first is strace starting /bin/sh; the rest are the programs the probes ran, in order: the
  // batch's one stat (shared-stat.ts; it was one per path: four), then the contents and the live value.
  t.deepEqual(programs.slice(1), ['stat', 'base64', 'base64', 'base64', 'base64']);
});

// The shell's `read` builtin takes a byte per read(2), and the kernel answers an integer
// parameter only at offset 0 (a read at a later offset is end of file): `read` would get "3" of
// "32768\t60999". A program reading with a buffer (base64) gets the whole value.
test('sysctl live: whole multi-digit and multi-value parameters, as the kernel prints them (whitespace collapsed)', async (t) => {
  const keys = ['net.ipv4.ip_local_port_range', 'kernel.printk', 'kernel.pid_max', 'net.core.somaxconn'];
  const h = localHost();
  const actual = await probeAll(
    h,
    keys.map((key) => sysctl({ key, value: '1', file: join(h.root, 'c.conf') })),
  );
  const kernel = keys.map((k) => normalizeSysctlValue(readFileSync(`/proc/sys/${k.replace(/\./g, '/')}`, 'utf8')));
  t.deepEqual(
    actual.map((a) => (a as SysctlActual).live),
    kernel,
  );
  t.true(kernel.every((v) => v.length > 1));
});
