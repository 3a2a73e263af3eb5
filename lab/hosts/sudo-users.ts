// The lab's unprivileged users, to test become (ansible_become: sudo) for real: `playlab` must give
// its password to sudo (the password is a lab secret in lab.env), `playlabnp` may sudo without one
// (NOPASSWD). They are users of this machine: lab hosts share /etc/passwd and /etc/sudoers.d (only
// /etc/netns/HOST entries are per host), so each logs in to every Linux lab host with the lab key.
// Their homes are in the lab's directory, so a lab (a test's sandbox lab, too) removes only its own.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { run, runInput } from '../exec.js';
import { writeIfChanged } from '../write.js';

export const SUDO_USER = 'playlab';
export const NOPASSWD_USER = 'playlabnp';
const SUDO = '/usr/bin/sudo';
const SUDOERS_FILE = '/etc/sudoers.d/play-lab';
const USERADD = '/usr/sbin/useradd';
const USERDEL = '/usr/sbin/userdel';
const CHPASSWD = '/usr/sbin/chpasswd';
const GETENT = '/usr/bin/getent';
const VISUDO = '/usr/sbin/visudo';

const SUDOERS_TEXT = [
  '# Written by play lab: the users that test become (ansible_become) against the lab hosts.',
  `${SUDO_USER} ALL=(ALL:ALL) ALL`,
  `${NOPASSWD_USER} ALL=(ALL:ALL) NOPASSWD: ALL`,
  '',
].join('\n');

/**
 * Creates the users (when missing), sets playlab's password (on chpasswd's stdin, never in argv) and
 * writes the sudoers rules, checked by visudo before they count. Without sudo installed there is
 * nothing to test: the note says how to get it.
 */
export async function ensureSudoUsers(labDir: string, password: string): Promise<string | undefined> {
  if (!existsSync(SUDO)) return 'sudo is not installed, so the lab has no become users: apt-get install sudo';
  for (const user of [SUDO_USER, NOPASSWD_USER]) {
    const known = await run(GETENT, ['passwd', user], { allowFail: true });
    if (known.code !== 0)
      await run(USERADD, ['--create-home', '--home-dir', join(labDir, 'users', user), '--shell', '/bin/sh', user]);
  }
  // A password for both: sshd (without PAM) refuses an account whose password is locked ('!').
  await runInput(CHPASSWD, [], `${SUDO_USER}:${password}\n${NOPASSWD_USER}:${password}\n`);
  const tmp = `${SUDOERS_FILE}.new`;
  writeIfChanged(tmp, SUDOERS_TEXT, 0o440);
  await run(VISUDO, ['-c', '-q', '-f', tmp]);
  writeIfChanged(SUDOERS_FILE, SUDOERS_TEXT, 0o440);
  rmSync(tmp, { force: true });
  return undefined;
}

/** `play lab down`: the users, their homes in the lab's directory and their sudoers rules. */
export async function removeSudoUsers(labDir: string): Promise<void> {
  rmSync(SUDOERS_FILE, { force: true });
  for (const user of [SUDO_USER, NOPASSWD_USER]) {
    const known = await run(GETENT, ['passwd', user], { allowFail: true });
    if (known.code === 0) await run(USERDEL, [user], { allowFail: true });
  }
  rmSync(join(labDir, 'users'), { recursive: true, force: true });
}
