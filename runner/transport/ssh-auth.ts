// Which authentication methods a connection tries, in which order, and how a failure is told.
// Order: the inventory's key file, then ssh_config's IdentityFiles, then ssh-agent (with
// IdentitiesOnly, only its keys of those files), then default identities (only without any key
// file, as ssh does), then the password. Keys first: an agent holding many keys can exhaust sshd's
// MaxAuthTries (6) before the right one. Methods the server does not list are skipped.
// The password is revealed only when it is handed to ssh2, and never appears in a message.
import { readFileSync } from 'node:fs';
import ssh2 from 'ssh2';
import type { AnyAuthMethod, AuthHandlerMiddleware, AuthenticationType, IdentityCallback, ParsedKey } from 'ssh2';
import { HandshakeError } from './errors.js';
import { type KeyProblem, readPrivateKey } from './private-key.js';
import { endpointOf, type SshTarget } from './target.js';

export type { KeyProblem } from './private-key.js';

const { utils, OpenSSHAgent } = ssh2;

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

/** Why the private key file at `path` cannot be used (missing, unreadable, encrypted, not a key, readable
 *  by others), or undefined when it can: the CLI checks every targeted host's keys before touching any host. */
export function keyFileProblem(path: string): string | undefined {
  return keyFileCheck(path)?.problem;
}

/** keyFileProblem, with the kind of problem. */
export function keyFileCheck(path: string): KeyProblem | undefined {
  const r = readPrivateKey(path);
  return 'problem' in r ? r : undefined;
}

/** The public key blob (base64) of a key file: from the key itself, else from its `.pub` (ssh's way for
 *  an encrypted key), for matching ssh-agent's keys under IdentitiesOnly. */
function publicBlob(path: string, key: ParsedKey | undefined): string | undefined {
  if (key) return key.getPublicSSH().toString('base64');
  try {
    const pub = utils.parseKey(readFileSync(`${path}.pub`));
    if (pub instanceof Error) return undefined;
    return (Array.isArray(pub) ? pub[0]! : pub).getPublicSSH().toString('base64');
  } catch {
    return undefined;
  }
}

/** ssh-agent offering only some of its keys: IdentitiesOnly's "only these identities, wherever they are". */
class OnlyTheseKeys extends OpenSSHAgent {
  constructor(
    socket: string,
    private readonly blobs: ReadonlySet<string>,
  ) {
    super(socket);
  }

  override getIdentities(cb: IdentityCallback<ParsedKey>): void {
    // The OpenSSH agent protocol gives parsed keys; an entry of another shape is not one of these files'.
    super.getIdentities((err, keys) =>
      cb(
        err,
        keys?.filter((k) => 'getPublicSSH' in k && this.blobs.has(k.getPublicSSH().toString('base64'))),
      ),
    );
  }
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
    const blobs = new Set<string>();
    const keyCandidate = (path: string, key: ParsedKey) => {
      blobs.add(key.getPublicSSH().toString('base64'));
      this.#candidates.push({
        label: `key file ${path}`,
        method: 'publickey',
        make: () => ({ type: 'publickey', username: user, key }),
      });
    };
    if (target.keyFile) {
      const r = readPrivateKey(target.keyFile);
      if ('problem' in r) {
        throw new HandshakeError(
          target.hostName,
          'config',
          `host ${target.hostName}: key file ${target.keyFile} ${r.problem} (set by ${target.keyFrom ?? 'ansible_ssh_private_key_file'})`,
        );
      }
      keyCandidate(target.keyFile, r.key);
    }
    for (const { file, from } of target.identityFiles ?? []) {
      const r = readPrivateKey(file);
      if ('key' in r) keyCandidate(file, r.key);
      else if (r.kind === 'encrypted') {
        // The agent may hold it (its .pub says which of the agent's keys it is).
        const blob = publicBlob(file, undefined);
        if (blob) blobs.add(blob);
      } else if (r.kind !== 'missing')
        throw new HandshakeError(
          target.hostName,
          'config',
          `host ${target.hostName}: IdentityFile ${file} ${r.problem} (${from})`,
        );
    }
    const agent = sources.agentSocket;
    if (agent && (!target.identitiesOnly || blobs.size > 0)) {
      const only = target.identitiesOnly ? new OnlyTheseKeys(agent, blobs) : undefined;
      this.#candidates.push({
        label: `ssh-agent (${agent}${only ? ', IdentitiesOnly' : ''})`,
        method: 'publickey',
        make: () => ({ type: 'agent', username: user, agent: only ?? agent }),
      });
    }
    if (!target.keyFile && !target.identityFiles?.length) {
      for (const path of sources.defaultKeyFiles) {
        const r = readPrivateKey(path);
        if ('key' in r) keyCandidate(path, r.key);
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

  /** The label of the method tried last (`key file ~/.ssh/id_ed25519`, `password from env var X`): never a secret. */
  get lastTried(): string | undefined {
    return this.#tried.at(-1);
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
