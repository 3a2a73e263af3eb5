// The kept shell (runner/transport/kept-shell.ts) over a local /bin/sh standing in for the channel (the
// same stdin, stdout and stderr an `exec /bin/sh` channel gives): commands one at a time with their own
// output and status, nothing one sets seen by the next, a command past its limit killed with its process
// group and the next one run in a new shell, and a shell that ended reported as ShellGone.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import test from 'ava';
import {
  KeptShell,
  RIDE_MAX,
  ShellGone,
  type ShellChannel,
  type ShellHost,
} from '../../runner/transport/kept-shell.js';

/** A local /bin/sh running `command` as the channel (as sshd's login shell runs an exec request), in a
 *  process group of its own (as sshd's session leader is). */
function localShell(command: string, banner = ''): ShellChannel & { pid: number } {
  const argv = ['-c', banner ? `printf '%s' '${banner}'; ${command}` : command];
  const child = spawn('/bin/sh', argv, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {});
  return {
    pid: child.pid!,
    write: (d: string) => child.stdin.write(d),
    on: (event: string, listener: (...a: any[]) => void) =>
      event === 'data' ? child.stdout.on('data', listener) : child.on('close', () => listener()),
    stderr: { on: (_e: 'data', listener: (d: Buffer) => void) => child.stderr.on('data', listener) },
    close: () => child.stdin.end(),
  } as ShellChannel & { pid: number };
}

function host(banner = ''): ShellHost & { opened: number[]; commands: string[]; killed: string[] } {
  const opened: number[] = [];
  const commands: string[] = [];
  const killed: string[] = [];
  return {
    opened,
    commands,
    killed,
    openShell: async (command: string) => {
      const s = localShell(command, banner);
      opened.push(s.pid);
      commands.push(command);
      return s;
    },
    exec: async (command: string) => {
      killed.push(command);
      spawnSync('/bin/sh', ['-c', command]);
    },
    timeoutError: (ms: number) => new Error(`timed out after ${ms} ms`),
  };
}

test('commands one at a time in one shell: their own output and status, nothing carried over', async (t) => {
  const h = host();
  const shell = new KeptShell(h);
  const results = await Promise.all([
    shell.run('play_x=set; echo "out $play_x"; echo err >&2; exit 3'),
    shell.run('echo "[${play_x-unset}]"; printf no-newline'),
    shell.run('cat; echo read-nothing'),
  ]);
  t.deepEqual(results, [
    { stdout: 'out set\n', stderr: 'err\n', code: 3 },
    { stdout: '[unset]\nno-newline', stderr: '', code: 0 },
    { stdout: 'read-nothing\n', stderr: '', code: 0 },
  ]);
  t.is(h.opened.length, 1);
  shell.close();
});

test("a shell whose start-up prints first (an rc file): its text is not a command's, and the shell is kept", async (t) => {
  const h = host('Welcome to linux1\n12345');
  const shell = new KeptShell(h);
  t.deepEqual(await shell.run('echo one'), { stdout: 'one\n', stderr: '', code: 0 });
  t.deepEqual(await shell.run('echo two'), { stdout: 'two\n', stderr: '', code: 0 });
  t.is(h.opened.length, 1);
  shell.close();
});

test('a command past its limit: its process group killed, the next command in a new shell', async (t) => {
  const h = host();
  const shell = new KeptShell(h);
  t.is((await shell.run('echo first')).stdout, 'first\n');
  await t.throwsAsync(shell.run('sleep 30', { timeoutMs: 300 }), { message: 'timed out after 300 ms' });
  t.deepEqual(h.killed, [`kill -KILL -- -${h.opened[0]}`]);
  t.deepEqual(await shell.run('echo again'), { stdout: 'again\n', stderr: '', code: 0 });
  t.is(h.opened.length, 2);
  shell.close();
});

test('a shell that ends fails its command with ShellGone; the next command opens a new one', async (t) => {
  const h = host();
  const shell = new KeptShell(h);
  // $$ in the subshell is the shell's own pid
  await t.throwsAsync(shell.run('kill -KILL $$'), { instanceOf: ShellGone });
  t.is((await shell.run('echo back')).stdout, 'back\n');
  t.is(h.opened.length, 2);
  const refusing = new KeptShell({ ...h, openShell: () => Promise.reject(new Error('channel refused')) });
  await t.throwsAsync(refusing.run('true'), { instanceOf: ShellGone, message: /no kept shell: channel refused/ });
  shell.close();
});

test("a command's input travels in the shell's stream: whole, binary or large, and unread input is no one's error", async (t) => {
  const h = host();
  const shell = new KeptShell(h);
  t.deepEqual(await shell.run('cat; echo "[${play_x-unset}]"', { stdin: Buffer.from('héllo\nno newline') }), {
    stdout: 'héllo\nno newline[unset]\n',
    stderr: '',
    code: 0,
  });
  const big = Buffer.alloc(300_000);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 256;
  const digest = createHash('sha256').update(big).digest('hex');
  t.is((await shell.run('sha256sum', { timeoutMs: 10_000, stdin: big })).stdout, `${digest}  -\n`);
  // Reads one byte of 300 KB, exits 4: its own output and status, nothing from the rest of the input.
  t.deepEqual(await shell.run('head -c 1 >/dev/null; echo read-one; exit 4', { stdin: big }), {
    stdout: 'read-one\n',
    stderr: '',
    code: 4,
  });
  // Without input it reads nothing, as before; a script that looks like the input's end is just text.
  t.deepEqual(await shell.run("cat; printf '%s\\n' '@@x@@input'"), { stdout: '@@x@@input\n', stderr: '', code: 0 });
  t.is(h.opened.length, 1);
  shell.close();
});

test('idle while nothing is queued; ShellGone says whether the command may have started', async (t) => {
  const h = host();
  const shell = new KeptShell(h);
  t.true(shell.idle);
  const running = shell.run('sleep 0.3; echo done');
  t.false(shell.idle);
  t.is((await running).stdout, 'done\n');
  t.true(shell.idle);
  const ended = await t.throwsAsync(shell.run('kill -KILL $$'), { instanceOf: ShellGone });
  t.true((ended as ShellGone).started);
  const refusing = new KeptShell({ ...h, openShell: () => Promise.reject(new Error('channel refused')) });
  const never = await t.throwsAsync(refusing.run('true'), { instanceOf: ShellGone });
  t.false((never as ShellGone).started);
  t.true(refusing.idle);
  shell.close();
});

test('a probe that opens the shell rides in its exec request; the shell then takes written commands', async (t) => {
  const h = host('rc file says hi\n');
  const shell = new KeptShell(h);
  const first = shell.run('echo "probe $$ [${play_private-unset}]"; cat; echo err >&2; exit 4', { readOnly: true });
  const second = shell.run('echo "written [${play_private:+set}]"');
  const [a, b] = await Promise.all([first, second]);
  t.regex(a.stdout, /^probe \d+ \[unset\]\n$/);
  t.deepEqual({ stderr: a.stderr, code: a.code }, { stderr: 'err\n', code: 4 });
  t.deepEqual(b, { stdout: 'written [set]\n', stderr: '', code: 0 });
  t.is(h.opened.length, 1);
  t.true(h.commands[0]!.startsWith('exec /bin/sh -c '));
  t.true(h.commands[0]!.includes('echo err >&2'), 'the probe is in the exec request');
  shell.close();
});

test('what may not ride opens a plain shell: a script that is not read-only, has input, or is too long', async (t) => {
  for (const [name, script, options] of [
    ['not read-only', 'echo x', { readOnly: false }],
    ['input', 'cat', { stdin: Buffer.from('in'), readOnly: true }],
    ['too long', `: ${'x'.repeat(RIDE_MAX)}; echo x`, { readOnly: true }],
  ] as const) {
    const h = host();
    const shell = new KeptShell(h);
    const r = await shell.run(script, options);
    t.is(r.code, 0, name);
    t.deepEqual(h.commands, ['exec /bin/sh'], name);
    shell.close();
  }
});

test('a riding probe past its limit: the shell it opened is killed by its pid, and the next opens anew', async (t) => {
  const h = host();
  const shell = new KeptShell(h);
  await t.throwsAsync(shell.run('sleep 30', { timeoutMs: 300, readOnly: true }), { message: 'timed out after 300 ms' });
  t.deepEqual(await shell.run('echo next'), { stdout: 'next\n', stderr: '', code: 0 });
  t.is(h.opened.length, 2);
  t.is(h.killed.length, 1);
  t.regex(h.killed[0]!, new RegExp(`^kill -KILL -- -${h.opened[0]}$`));
  shell.close();
});

test("a login shell that cannot take a riding command (csh's quoted newline): the probe runs in a plain shell, and none rides again", async (t) => {
  const h = host();
  const asked: string[] = [];
  const csh: ShellHost = {
    ...h,
    openShell: (command) => {
      asked.push(command);
      return h.openShell(command.includes('\n') ? `echo "Unmatched '''." >&2; exit 1` : command);
    },
  };
  const shell = new KeptShell(csh);
  t.deepEqual(await shell.run('echo probe', { readOnly: true }), { stdout: 'probe\n', stderr: '', code: 0 });
  await t.throwsAsync(shell.run('sleep 30', { timeoutMs: 200 }), { message: 'timed out after 200 ms' });
  t.deepEqual(await shell.run('echo again', { readOnly: true }), { stdout: 'again\n', stderr: '', code: 0 });
  t.is(asked.filter((c) => c.startsWith('exec /bin/sh -c ')).length, 1);
  t.deepEqual(asked.slice(1), ['exec /bin/sh', 'exec /bin/sh']);
  shell.close();
});
