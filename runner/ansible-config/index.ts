// ansible.cfg and ANSIBLE_* variables as play honours them: docs/ansible-config.md.
export { connectionSettings, type ConnectionSettings } from './connection-settings.js';
export { loadAnsibleConfig, showConfigWarnings } from './load.js';
export { configuredForks, configuredPoolOptions, poolDefaults } from './run-settings.js';
export { type AnsibleConfig, type AnsibleSettings, ansibleSettings, type Setting } from './settings.js';
