// An inventory of one host for the run tests, which connect to their test sshd on 127.0.0.1:22.
import type { Host, Inventory } from '../../runner/inventory/model.js';

/** Host `name` in `group` (and `all`), logging in as `user` to a host of `os`, with `vars`. */
export function oneHostInventory(
  name: string,
  group: string,
  login: { readonly user: string; readonly os: 'linux' | 'windows' },
  vars: Host['vars'] = {},
): { inv: Inventory; host: Host } {
  const host: Host = {
    name,
    vars,
    groups: ['all', group],
    connection: { address: '127.0.0.1', port: 22, user: login.user, os: login.os },
  };
  const groups = new Map([
    ['all', { name: 'all', hosts: [name], children: [group], vars: {} }],
    [group, { name: group, hosts: [name], children: [], vars: {} }],
  ]);
  return { inv: { file: 'test.yaml', hosts: [host], groups, host: () => host }, host };
}
