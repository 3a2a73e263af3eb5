// The vault passwords an ansible.cfg or the environment names (runner/vault/passwords.ts reads them):
// vault_identity_list (ANSIBLE_VAULT_IDENTITY_LIST), tried before the command line's --vault-id as
// Ansible prepends them, and vault_password_file (ANSIBLE_VAULT_PASSWORD_FILE), after the command
// line's --vault-password-file. The one place ANSIBLE_VAULT_PASSWORD_FILE is read.
import { loadAnsibleConfig } from './load.js';
import type { AnsibleConfig } from './settings.js';

export interface ConfiguredVault {
  /** `[LABEL@]SOURCE` each, with how messages name it. */
  readonly vaultIds: readonly { readonly slug: string; readonly from: string }[];
  readonly passwordFiles: readonly { readonly value: string; readonly from: string }[];
}

/** Pure: the vault sources of `config`; `env` only to name an environment variable as it was written. */
export function vaultSourcesOf(config: AnsibleConfig, env: NodeJS.ProcessEnv): ConfiguredVault {
  const ids = config.settings.vault_identity_list;
  const file = config.settings.vault_password_file;
  const idsFrom = ids.origin === 'ANSIBLE_VAULT_IDENTITY_LIST' ? ids.origin : `vault_identity_list in ${ids.origin}`;
  return {
    vaultIds: ids.value.filter((s) => s !== '').map((slug) => ({ slug, from: `${idsFrom} (${slug})` })),
    passwordFiles: file
      ? [
          {
            value: file.value,
            from:
              file.origin === 'ANSIBLE_VAULT_PASSWORD_FILE'
                ? `ANSIBLE_VAULT_PASSWORD_FILE (${env.ANSIBLE_VAULT_PASSWORD_FILE})`
                : `vault_password_file ${file.value} (${file.origin})`,
          },
        ]
      : [],
  };
}

/** The vault sources the ansible.cfg in effect and the environment `env` name. */
export function configuredVaultSources(env: NodeJS.ProcessEnv = process.env): ConfiguredVault {
  return vaultSourcesOf(loadAnsibleConfig(env), env);
}
