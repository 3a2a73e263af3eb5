// ansible-playbook's connection flags: -u, --private-key, -b, --become-user, --become-method, -k, -K.
// One table, so a command adds them with one line, and reading them: paths resolved and the key file
// checked as the inventory's are, passwords asked on the terminal (once each, before any host is
// touched, as ansible's ask_passwords: the SSH one first, and an empty become password then means "the
// same"), kept as Secrets. They become the defaults under the inventory's variables
// (runner/inventory/connection-defaults.ts).
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { Options } from 'yargs';
import { InputError, UsageError } from '../core/errors.js';
import { MIN_SECRET_LENGTH, Secret } from '../core/secret.js';
import type { ConnectionSettings, Setting } from '../inventory/connection-defaults.js';
import { type Asking, promptHidden } from '../core/prompt.js';

export const CONNECTION_OPTIONS = {
  user: { alias: 'u', type: 'string', describe: 'log in as this user where the inventory sets no ansible_user' },
  'private-key': {
    alias: 'key-file',
    type: 'string',
    describe: 'private key file where the inventory sets no ansible_ssh_private_key_file',
  },
  become: {
    alias: 'b',
    type: 'boolean',
    describe: 'run commands through sudo where the inventory sets no ansible_become (Linux hosts)',
  },
  'become-user': { type: 'string', describe: 'become this user (default root) where no ansible_become_user is set' },
  'become-method': { type: 'string', describe: 'how to become: sudo (the only method play has)' },
  'ask-become-pass': {
    alias: 'K',
    type: 'boolean',
    describe: 'ask for the become (sudo) password on the terminal, without echo',
  },
  'ask-pass': { alias: 'k', type: 'boolean', describe: 'ask for the SSH password on the terminal, without echo' },
} as const satisfies Record<string, Options>;

export const CONNECTION_GROUP = 'Connection (as ansible-playbook):';

/** The flags as yargs gives them (camelCase). */
export interface ConnectionFlags {
  user?: string;
  privateKey?: string;
  become?: boolean;
  becomeUser?: string;
  becomeMethod?: string;
  askBecomePass?: boolean;
  askPass?: boolean;
}

type Ask = (question: string, asking: Asking) => Promise<string>;

const USER_NAME = /^(?:[A-Za-z0-9._][A-Za-z0-9._-]*\$?|#\d+)$/;
const INSTEAD = {
  ssh: `set ansible_password in the inventory as a !vault value (ansible-vault encrypt_string) or as "{{ lookup('env', 'NAME') }}"`,
  become: `set ansible_become_password in the inventory as a !vault value (ansible-vault encrypt_string) or as "{{ lookup('env', 'NAME') }}"`,
};

/** The command's connection settings from its flags; asks for the passwords -k and -K ask for. */
export async function readConnectionFlags(a: ConnectionFlags, ask: Ask = promptHidden): Promise<ConnectionSettings> {
  const out: Record<string, Setting<unknown>> = {};
  if (a.user !== undefined) {
    if (!USER_NAME.test(a.user)) throw new UsageError(`-u '${a.user}': expected a user name`);
    out.remoteUser = { value: a.user, origin: '-u' };
  }
  if (a.privateKey !== undefined)
    out.privateKeyFile = { value: await checkedKey(a.privateKey), origin: '--private-key' };
  if (a.become !== undefined) out.become = { value: a.become, origin: '-b' };
  if (a.becomeUser !== undefined) {
    if (!USER_NAME.test(a.becomeUser)) throw new UsageError(`--become-user '${a.becomeUser}': expected a user name`);
    out.becomeUser = { value: a.becomeUser, origin: '--become-user' };
  }
  if (a.becomeMethod !== undefined) {
    if (a.becomeMethod.replace(/^ansible\.builtin\./, '') !== 'sudo')
      throw new UsageError(`--become-method ${a.becomeMethod}: play becomes with sudo only (leave the flag out)`);
    out.becomeMethod = { value: 'sudo', origin: '--become-method' };
  }
  const sshPassword = a.askPass
    ? await askSecret(ask, 'SSH password: ', { flag: '--ask-pass', what: 'SSH password', instead: INSTEAD.ssh })
    : undefined;
  if (sshPassword) out.password = { value: sshPassword, origin: '--ask-pass' };
  if (a.askBecomePass) {
    const question = sshPassword ? 'BECOME password[defaults to SSH password]: ' : 'BECOME password: ';
    const asking = { flag: '--ask-become-pass', what: 'become password', instead: INSTEAD.become };
    const value = await askSecret(ask, question, asking, sshPassword);
    out.becomePassword = { value, origin: '--ask-become-pass' };
  }
  return Object.freeze(out) as ConnectionSettings;
}

/** A typed password as a Secret; nothing typed is `orElse` (ansible's "defaults to SSH password") or refused. */
async function askSecret(ask: Ask, question: string, asking: Asking, orElse?: Secret): Promise<Secret> {
  const text = await ask(question, asking);
  if (text === '' && orElse) return new Secret(orElse.reveal(), asking.flag);
  if (text === '') throw new UsageError(`${asking.flag}: the ${asking.what} is empty`);
  if (text.length < MIN_SECRET_LENGTH)
    throw new UsageError(
      `${asking.flag}: the ${asking.what} is ${text.length} character${text.length === 1 ? '' : 's'} long: ` +
        `a secret needs at least ${MIN_SECRET_LENGTH}, or play could not mask it in output`,
    );
  return new Secret(text, asking.flag);
}

/** --private-key's file, absolute, usable as the inventory's keys must be (runner/transport/ssh-auth.ts). */
async function checkedKey(given: string): Promise<string> {
  if (given === '') throw new UsageError('--private-key: expected a private key file');
  const path = resolve(given === '~' || given.startsWith('~/') ? homedir() + given.slice(1) : given);
  // ssh2 (which reads the key) is loaded only here: every command's --help imports these flags.
  const { keyFileCheck } = await import('../transport/ssh-auth.js');
  const problem = keyFileCheck(path);
  if (problem) throw new InputError(`--private-key ${path}: ${problem.problem}`);
  return path;
}
