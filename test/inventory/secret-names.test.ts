// Which variable names hold a secret (runner/inventory/secret-names.ts): the one rule the inventory
// and -e share. The last word decides, so names about a secret rather than holding one are left alone.
import test from 'ava';
import { envVarFor, isSecretName } from '../../runner/inventory/secret-names.js';

test('isSecretName: by the last word of the name', (t) => {
  const names = [
    'ansible_password',
    'ansible_ssh_pass',
    'ansible_ssh_password',
    'ansible_become_password',
    'ansible_become_pass',
    'vrrp_auth_pass',
    'api_token',
    'client_secret',
    'key_passphrase',
    'db_passwd',
    'vaultPassword',
    'PASSWORD',
    'admin-secret',
    'ansible_user',
    'ansible_ssh_private_key_file',
    'secret_name',
    'token_ttl',
    'password_file',
    'proxy_bypass',
    'compass',
    'passthrough',
    'local_kubeconfig',
    '',
  ];
  t.deepEqual(Object.fromEntries(names.map((n) => [n, isSecretName(n)])), {
    ansible_password: true,
    ansible_ssh_pass: true,
    ansible_ssh_password: true,
    ansible_become_password: true,
    ansible_become_pass: true,
    vrrp_auth_pass: true,
    api_token: true,
    client_secret: true,
    key_passphrase: true,
    db_passwd: true,
    vaultPassword: true,
    PASSWORD: true,
    'admin-secret': true,
    ansible_user: false,
    ansible_ssh_private_key_file: false,
    secret_name: false,
    token_ttl: false,
    password_file: false,
    proxy_bypass: false,
    compass: false,
    passthrough: false,
    local_kubeconfig: false,
    '': false,
  });
});

test('envVarFor: the environment variable a message suggests', (t) => {
  t.deepEqual(['vrrp_auth_pass', 'vaultPassword', 'admin-secret'].map(envVarFor), [
    'VRRP_AUTH_PASS',
    'VAULT_PASSWORD',
    'ADMIN_SECRET',
  ]);
});
