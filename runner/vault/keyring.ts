// The vault passwords of one command (--vault-id, --vault-password-file, --ask-vault-pass,
// ANSIBLE_VAULT_PASSWORD_FILE: passwords.ts reads them), and decrypting with them as ansible's
// VaultLib.decrypt does: the passwords labelled with the envelope's vault id first, then every other
// one in the order given (ansible's default, vault_id_match off: a label only orders the attempts).
import type { Secret } from '../core/secret.js';
import { decryptEnvelope, parseEnvelope, VaultFormatError, type VaultEnvelope } from './format.js';

/** The label of a password given without one (ansible's DEFAULT_VAULT_IDENTITY). */
export const DEFAULT_VAULT_ID = 'default';

export interface VaultPassword {
  /** Its label: `prod` of `--vault-id prod@FILE`, else `default`. */
  readonly id: string;
  readonly password: Secret;
  /** Where it came from, for messages: `--vault-password-file /etc/vault-pass`, `the prompt`. */
  readonly from: string;
}

/** Why a vault text could not be decrypted; `sentence(subject)` says it about a file or a value. */
export class VaultError extends Error {
  constructor(
    private readonly clause: string,
    readonly id?: string,
  ) {
    super(clause);
  }

  /** `subject` is "is" for a file (`FILE: is encrypted ...`) or "this !vault value is". */
  sentence(subject: string): string {
    return `${subject} ${this.clause}`;
  }
}

const HOW_TO_GIVE =
  'pass --vault-password-file FILE, --vault-id [LABEL@]FILE or --ask-vault-pass (or set ANSIBLE_VAULT_PASSWORD_FILE)';

export class VaultKeyring {
  constructor(readonly passwords: readonly VaultPassword[] = []) {}

  /** The plaintext of the vault text `text`; a VaultError when it cannot be read or no password fits. */
  decrypt(text: string): Buffer {
    // As in ansible, no password at all is said before anything about the text.
    if (this.passwords.length === 0) {
      const id = /^\S*;\S*;\S*;(\S+)/.exec(text)?.[1];
      return this.#refuse(
        `encrypted with ansible-vault${id ? ` (vault id ${id})` : ''}, and no vault password was given: ${HOW_TO_GIVE}`,
        id,
      );
    }
    let envelope: VaultEnvelope;
    try {
      envelope = parseEnvelope(text);
    } catch (e) {
      if (!(e instanceof VaultFormatError)) throw e;
      return this.#refuse(`marked as ansible-vault encrypted but cannot be read: ${e.message}`);
    }
    const idText = envelope.id ? ` (vault id ${envelope.id})` : '';
    const ordered = [
      ...this.passwords.filter((p) => p.id === envelope.id),
      ...this.passwords.filter((p) => p.id !== envelope.id),
    ];
    for (const p of ordered) {
      const plain = this.#attempt(envelope, p);
      if (plain) return plain;
    }
    const one = this.passwords.length === 1;
    const given = one ? 'the vault password given' : `none of the ${this.passwords.length} vault passwords given`;
    const unlabelled =
      envelope.id && !this.passwords.some((p) => p.id === envelope.id)
        ? ` (none is labelled ${envelope.id}: --vault-id ${envelope.id}@FILE)`
        : '';
    return this.#refuse(
      `encrypted with ansible-vault${idText}, and ${given} (${this.passwords.map((p) => p.from).join(', ')}) ` +
        `${one ? 'does not decrypt' : 'decrypts'} it${unlabelled}: a wrong password, or the file changed since it was encrypted`,
      envelope.id,
    );
  }

  #attempt(envelope: VaultEnvelope, p: VaultPassword): Buffer | null {
    try {
      return decryptEnvelope(envelope, Buffer.from(p.password.reveal(), 'utf8'));
    } catch (e) {
      if (!(e instanceof VaultFormatError)) throw e;
      return this.#refuse(`encrypted with ansible-vault, and its payload is damaged: ${e.message}`, envelope.id);
    }
  }

  #refuse(clause: string, id?: string): never {
    throw new VaultError(clause, id);
  }
}
