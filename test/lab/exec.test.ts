// The lab's command runner: a daemon started by a command (sshd forks one) may keep the command's
// output pipes open; the command's own exit, not the pipes' close, ends the wait.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { LabCommandError, run, runInput } from '../../lab/exec.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

for (const [name, start] of [
  ['run', (script: string) => run('/bin/sh', ['-c', script])],
  ['runInput', (script: string) => runInput('/bin/sh', ['-c', `cat >/dev/null; ${script}`], 'input\n')],
] as const) {
  test(`${name}: settles when the command exits, though a child it left running holds its output`, async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'play-lab-exec-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const pidFile = join(dir, 'daemon.pid');
    const r = await start(`sleep 300 & echo $! > ${pidFile}; echo started; echo warned >&2`);
    const daemon = Number(readFileSync(pidFile, 'utf8'));
    t.teardown(() => {
      if (alive(daemon)) process.kill(daemon, 'SIGKILL');
    });
    // The daemon still holds the pipes: the wait ended with the command, not with it.
    t.true(alive(daemon));
    t.deepEqual(r, { code: 0, stdout: 'started\n', stderr: 'warned\n' });
  });
}

test('a failing command and a missing program are LabCommandErrors naming them', async (t) => {
  const failed = await t.throwsAsync(run('/bin/sh', ['-c', 'echo no >&2; exit 3']), { instanceOf: LabCommandError });
  t.is(failed.message, '/bin/sh -c echo no >&2; exit 3 failed (exit 3): no');
  t.deepEqual(await run('/bin/sh', ['-c', 'exit 4'], { allowFail: true }), { code: 4, stdout: '', stderr: '' });
  const missing = await t.throwsAsync(run('/nonexistent/tool', ['x']), { instanceOf: LabCommandError });
  t.is(missing.message, '/nonexistent/tool x failed (ENOENT): spawn /nonexistent/tool ENOENT');
  t.false(existsSync('/nonexistent/tool'));
});

test('a command past its time limit is killed and reported', async (t) => {
  const e = await t.throwsAsync(run('/bin/sleep', ['300'], { timeoutMs: 200 }), { instanceOf: LabCommandError });
  t.is(e.message, '/bin/sleep 300 failed (SIGKILL)');
});
