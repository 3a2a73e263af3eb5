// Which authentication methods a connection tries, in which order, and how a failure is told.
// Order: the inventory's key file, then ssh-agent, then default identities (only without a key
// file, as ssh -i does), then the password. Keys first: an agent holding many keys can exhaust
// sshd's MaxAuthTries (6) before the right one. Methods the server does not list are skipped.
// The password is revealed only when it is handed to ssh2, and never appears in a message.
import { readFileSync } from 'node:fs';
import ssh2 from 'ssh2';
import type { AnyAuthMethod, AuthHandlerMiddleware, AuthenticationType, ParsedKey } from 'ssh2';
import { HandshakeError } from './errors.js';
import { endpointOf, type SshTarget } from './target.js';

const { utils } = ssh2;

export interface AuthSources {
  /** ssh-agent socket (SSH_AUTH_SOCK); none to skip the agent. */
  readonly agentSocket?: string;
  /** Identities tried when the host has no key file (ssh's ~/.ssh/id_*); missing ones are skipped. */
  readonly defaultKeyFiles: readonly string[];
}

interface Candidate {
  readonly label: string;
  readonly method: AuthenticationType;
  /** Extra condition on the server's list of methods (null before the first failure). */
  readonly when?: (serverMethods: readonly string[] | null) => boolean;
  make(): AnyAuthMethod;
}

type KeyRead = { key: ParsedKey } | { problem: string; code?: string };

/** Why the private key file at `path` cannot be used (missing, unreadable, encrypted, not a key),
 *  or undefined when it can: the CLI checks every targeted host's key before touching any host. */
export function keyFileProblem(path: string): string | undefined {
  const r = readKey(path);
  return 'problem' in r ? r.problem : undefined;
}

function readKey(path: string): KeyRead {
  let data: Buffer;
  try {
    data = readFileSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { problem: code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? (e as Error).message})`, code };
  }
  const parsed = utils.parseKey(data);
  if (parsed instanceof Error) {
    if (/passphrase/i.test(parsed.message)) {
      return {
        problem: `is encrypted and play cannot ask for its passphrase: load it into ssh-agent (ssh-add ${path}) instead`,
      };
    }
    return { problem: `is not a private key ssh2 can read (${parsed.message})` };
  }
  const key = Array.isArray(parsed) ? parsed[0]! : parsed;
  if (!key.isPrivateKey()) return { problem: 'holds a public key, not a private key' };
  return { key };
}

export class AuthPlan {
  readonly #candidates: Candidate[] = [];
  readonly #tried: string[] = [];
  readonly #notes: string[] = [];
  #serverMethods: readonly string[] | null = null;
  #next = 0;

  /** Throws a `config` HandshakeError for a key file that is missing or unusable, or no method at all. */
  constructor(
    private readonly target: SshTarget,
    sources: AuthSources,
  ) {
    const user = target.user;
    if (target.keyFile) {
      const r = readKey(target.keyFile);
      if ('problem' in r) {
        throw new HandshakeError(
          target.hostName,
          'config',
          `host ${target.hostName}: key file ${target.keyFile} ${r.problem} (set by ${target.keyFrom ?? 'ansible_ssh_private_key_file'})`,
        );
      }
      this.#candidates.push({
        label: `key file ${target.keyFile}`,
        method: 'publickey',
        make: () => ({ type: 'publickey', username: user, key: r.key }),
      });
    }
    const agent = sources.agentSocket;
    if (agent) {
      this.#candidates.push({
        label: `ssh-agent (${agent})`,
        method: 'publickey',
        make: () => ({ type: 'agent', username: user, agent }),
      });
    }
    if (!target.keyFile) {
      for (const path of sources.defaultKeyFiles) {
        const r = readKey(path);
        if ('key' in r)
          this.#candidates.push({
            label: `key file ${path}`,
            method: 'publickey',
            make: () => ({ type: 'publickey', username: user, key: r.key }),
          });
      }
    }
    const password = target.password;
    if (password) {
      const label = `password from ${target.passwordFrom ? `env var ${target.passwordFrom}` : password.source}`;
      this.#candidates.push({
        label,
        method: 'password',
        make: () => ({ type: 'password', username: user, password: password.reveal() }),
      });
      // sshd with PAM and PasswordAuthentication off asks for the password this way instead.
      this.#candidates.push({
        label: `${label} (keyboard-interactive)`,
        method: 'keyboard-interactive',
        when: (m) => m !== null && !m.includes('password'),
        make: () => ({
          type: 'keyboard-interactive',
          username: user,
          prompt: (_name, _instructions, _lang, prompts, finish) =>
            finish(prompts.map((p) => (p.echo ? '' : password.reveal()))),
        }),
      });
    }
    if (this.#candidates.length === 0) {
      throw new HandshakeError(
        target.hostName,
        'config',
        `host ${target.hostName}: no way to authenticate as ${user}: set ansible_ssh_private_key_file or ansible_password, or start an ssh-agent (SSH_AUTH_SOCK)`,
      );
    }
  }

  /** ssh2's authHandler: the next candidate the server still accepts, or false when none is left. */
  readonly handler: AuthHandlerMiddleware = (methodsLeft, _partialSuccess, next) => {
    const serverMethods = (methodsLeft as AuthenticationType[] | null) ?? null;
    if (serverMethods) this.#serverMethods = serverMethods;
    while (this.#next < this.#candidates.length) {
      const c = this.#candidates[this.#next++]!;
      if (serverMethods && !serverMethods.includes(c.method)) continue;
      if (c.when && !c.when(serverMethods)) continue;
      this.#tried.push(c.label);
      return next(c.make());
    }
    // ssh2 takes false for "no more methods"; its typings omit it.
    (next as unknown as (auth: false) => void)(false);
  };

  /** ssh2 reports agent problems (a dead socket) as errors and goes on: keep them for the message. */
  note(detail: string): void {
    this.#notes.push(detail);
  }

  failureMessage(): string {
    const t = this.target;
    const tried = this.#tried.length
      ? `tried ${this.#tried.join(', ')}`
      : `tried nothing the server accepts (we have: ${this.#candidates.map((c) => c.label).join(', ')})`;
    const accepts = this.#serverMethods ? `; the server accepts: ${this.#serverMethods.join(', ')}` : '';
    const notes = this.#notes.length ? `; ${this.#notes.join('; ')}` : '';
    return `host ${t.hostName}: authentication failed for user ${t.user} at ${endpointOf(t)}; ${tried}${accepts}${notes}`;
  }
}
