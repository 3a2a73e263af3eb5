// The Ansible settings play honours: where each is read in ansible.cfg, its ANSIBLE_* variable, how
// Ansible types it and play's default (ansible/config/base.yml; ssh_args and ssh_common_args are the
// ssh connection plugin's). Everything else in an ansible.cfg is listed as not honoured.

export type SettingType = 'integer' | 'boolean' | 'string' | 'path' | 'pathlist' | 'list';

export interface SettingKey {
  /** The ansible.cfg key, also the name `play config` shows. */
  readonly key: string;
  readonly section: 'defaults' | 'privilege_escalation' | 'ssh_connection';
  readonly env: string;
  readonly type: SettingType;
  /** Ansible's name for it in `ansible-config dump` (a plugin option's own name for the ssh plugin's). */
  readonly ansible: string;
  /** play's value when nothing sets it (none: play's own choice, e.g. ssh_config's user). */
  readonly default?: number | boolean | string | readonly string[];
}

export const SETTING_KEYS = [
  { key: 'inventory', section: 'defaults', env: 'ANSIBLE_INVENTORY', type: 'pathlist', ansible: 'DEFAULT_HOST_LIST' },
  {
    key: 'remote_user',
    section: 'defaults',
    env: 'ANSIBLE_REMOTE_USER',
    type: 'string',
    ansible: 'DEFAULT_REMOTE_USER',
  },
  {
    key: 'private_key_file',
    section: 'defaults',
    env: 'ANSIBLE_PRIVATE_KEY_FILE',
    type: 'path',
    ansible: 'DEFAULT_PRIVATE_KEY_FILE',
  },
  { key: 'forks', section: 'defaults', env: 'ANSIBLE_FORKS', type: 'integer', ansible: 'DEFAULT_FORKS', default: 20 },
  {
    key: 'timeout',
    section: 'defaults',
    env: 'ANSIBLE_TIMEOUT',
    type: 'integer',
    ansible: 'DEFAULT_TIMEOUT',
    default: 10,
  },
  {
    key: 'host_key_checking',
    section: 'defaults',
    env: 'ANSIBLE_HOST_KEY_CHECKING',
    type: 'boolean',
    ansible: 'HOST_KEY_CHECKING',
    default: true,
  },
  {
    key: 'become',
    section: 'privilege_escalation',
    env: 'ANSIBLE_BECOME',
    type: 'boolean',
    ansible: 'DEFAULT_BECOME',
    default: false,
  },
  {
    key: 'become_user',
    section: 'privilege_escalation',
    env: 'ANSIBLE_BECOME_USER',
    type: 'string',
    ansible: 'DEFAULT_BECOME_USER',
    default: 'root',
  },
  {
    key: 'become_method',
    section: 'privilege_escalation',
    env: 'ANSIBLE_BECOME_METHOD',
    type: 'string',
    ansible: 'DEFAULT_BECOME_METHOD',
    default: 'sudo',
  },
  {
    key: 'vault_password_file',
    section: 'defaults',
    env: 'ANSIBLE_VAULT_PASSWORD_FILE',
    type: 'path',
    ansible: 'DEFAULT_VAULT_PASSWORD_FILE',
  },
  {
    key: 'vault_identity_list',
    section: 'defaults',
    env: 'ANSIBLE_VAULT_IDENTITY_LIST',
    type: 'list',
    ansible: 'DEFAULT_VAULT_IDENTITY_LIST',
    default: [],
  },
  { key: 'ssh_args', section: 'ssh_connection', env: 'ANSIBLE_SSH_ARGS', type: 'string', ansible: 'ssh_args' },
  {
    key: 'ssh_common_args',
    section: 'ssh_connection',
    env: 'ANSIBLE_SSH_COMMON_ARGS',
    type: 'string',
    ansible: 'ssh_common_args',
  },
] as const satisfies readonly SettingKey[];

export type SettingName = (typeof SETTING_KEYS)[number]['key'];
