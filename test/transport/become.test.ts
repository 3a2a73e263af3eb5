// SudoConnection against a sudo double (FakeSudo below, a test double of a host's sudo): what goes on
// the command line and on stdin, compared whole, and the refusals. The double says no where sudo does:
// a policy that needs a password refuses -n, and a wrong first line of stdin is an incorrect attempt.
// Real sudo over real SSH: test/e2e/become.test.ts.
import test from 'ava';
import { Secret } from '../../runner/core/secret.js';
import type { ExecOptions, ExecResult } from '../../runner/core/step.js';
import { BecomeError, SudoConnection } from '../../runner/transport/become.js';

const PASSWORD = 'c0rrect-horse';

/** A test double of a host's sudo: parses the sudo prefix and answers as sudo 1.9 does. */
class FakeSudo {
  readonly calls: { command: string; stdin: string }[] = [];
  constructor(private readonly policy: { nopasswd: boolean; password?: string }) {}

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    const stdin = options.stdin === undefined ? '' : Buffer.from(options.stdin as string | Buffer).toString();
    this.calls.push({ command, stdin });
    const m = /^sudo -k (-n|-S -p '') (?:-H )?-u '?(\w+)'? -- (.*)$/s.exec(command);
    if (!m) return { stdout: '', stderr: `sh: not a sudo command: ${command}`, code: 127 };
    const [, how, , rest] = m;
    if (how === '-n' && !this.policy.nopasswd) return { stdout: '', stderr: 'sudo: a password is required\n', code: 1 };
    let input = stdin;
    if (how !== '-n' && !this.policy.nopasswd) {
      const line = stdin.split('\n')[0];
      if (line !== this.policy.password)
        return { stdout: '', stderr: 'Sorry, try again.\nsudo: 1 incorrect password attempt\n', code: 1 };
      input = stdin.slice(line.length + 1);
    }
    return { stdout: `ran ${rest} with input ${JSON.stringify(input)}`, stderr: '', code: 0 };
  }
}

const target = (password?: string) => ({
  hostName: 'web1',
  loginUser: 'deploy',
  user: 'root',
  ...(password === undefined ? {} : { password: new Secret(password, 'env:SUDO_PASS'), passwordFrom: 'env:SUDO_PASS' }),
});

test('a password policy: checked once alone on stdin, then the first line of every command input', async (t) => {
  const host = new FakeSudo({ nopasswd: false, password: PASSWORD });
  const sudo = new SudoConnection(host, target(PASSWORD));
  const a = await sudo.exec("/bin/sh -c 'cat > /etc/x'", { stdin: 'content\n' });
  const b = await sudo.exec("/bin/sh -c 'id -u'");
  t.is(a.stdout, `ran /bin/sh -c 'cat > /etc/x' with input "content\\n"`);
  t.is(b.code, 0);
  t.deepEqual(host.calls, [
    { command: 'sudo -k -n -u root -- true', stdin: '' },
    { command: "sudo -k -S -p '' -u root -- true", stdin: `${PASSWORD}\n` },
    { command: "sudo -k -S -p '' -H -u root -- /bin/sh -c 'cat > /etc/x'", stdin: `${PASSWORD}\ncontent\n` },
    { command: "sudo -k -S -p '' -H -u root -- /bin/sh -c 'id -u'", stdin: `${PASSWORD}\n` },
  ]);
  t.false(
    host.calls.some((c) => c.command.includes(PASSWORD)),
    'the password is never on a command line',
  );
});

test('NOPASSWD: no password is ever sent, even when one is configured', async (t) => {
  const host = new FakeSudo({ nopasswd: true });
  const sudo = new SudoConnection(host, target(PASSWORD));
  await sudo.exec('id -u', { stdin: 'x' });
  t.deepEqual(host.calls, [
    { command: 'sudo -k -n -u root -- true', stdin: '' },
    { command: 'sudo -k -n -H -u root -- id -u', stdin: 'x' },
  ]);
});

test('a wrong password fails in one attempt, and every later command fails the same without asking again', async (t) => {
  const host = new FakeSudo({ nopasswd: false, password: PASSWORD });
  const sudo = new SudoConnection(host, target('wrong-one'));
  const message =
    'host web1: deploy cannot become root with sudo: sudo refused the become password (ansible_become_password, from env:SUDO_PASS): sudo: 1 incorrect password attempt';
  await t.throwsAsync(sudo.exec('id -u'), { instanceOf: BecomeError, message });
  await t.throwsAsync(sudo.exec('id -u'), { instanceOf: BecomeError, message });
  t.is(host.calls.length, 2, 'one -n check and one password attempt, for the whole run');
});

test('a password policy without a password names the variable to set', async (t) => {
  const sudo = new SudoConnection(new FakeSudo({ nopasswd: false, password: PASSWORD }), target());
  await t.throwsAsync(sudo.exec('id -u'), {
    instanceOf: BecomeError,
    message:
      "host web1: deploy cannot become root with sudo without a password (sudo: a password is required): set ansible_become_password, e.g. \"{{ lookup('env', 'SUDO_PASS') }}\"",
  });
});

test('a user sudo does not allow at all: sudo says why', async (t) => {
  const host = {
    exec: async (): Promise<ExecResult> => ({
      stdout: '',
      stderr: 'sudo: unable to resolve host x\ndeploy is not in the sudoers file.\n',
      code: 1,
    }),
  };
  await t.throwsAsync(new SudoConnection(host, target(PASSWORD)).exec('id -u'), {
    instanceOf: BecomeError,
    message: 'host web1: deploy cannot become root with sudo: deploy is not in the sudoers file.',
  });
});
