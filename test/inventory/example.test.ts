// inventory/example.yaml, the cluster of the field notes: it loads, it says what docs/domain.md says,
// and ansible-inventory reads it to the same groups and variables.
import test from 'ava';
import { loadInventory, resolveSecrets } from '../../runner/inventory/load.js';
import { EnvRef } from '../../runner/inventory/model.js';
import { selectHosts } from '../../runner/inventory/pattern.js';
import { ansibleInventoryList, requireAnsible } from './ansible-oracle.js';

const FILE = new URL('../../inventory/example.yaml', import.meta.url).pathname;
const inv = loadInventory(FILE);
const names = (pattern: string) => selectHosts(inv, pattern).map((h) => h.name);

test('groups and hosts of the example cluster', (t) => {
  t.deepEqual(names('tor'), ['tor1', 'tor2', 'tor3']);
  t.deepEqual(names('control'), ['master1']);
  t.deepEqual(names('windows'), ['node009', 'node010', 'node011']);
  t.deepEqual(
    inv.hosts.map((h) => h.name),
    ['tor1', 'tor2', 'tor3', 'master1', 'node009', 'node010', 'node011'],
  );
  t.deepEqual(inv.warnings, []);
});

test('node009 carries the facts of field note A', (t) => {
  const node = inv.host('node009')!;
  t.like(node.vars, {
    cluster_ip: '100.100.126.216',
    dns_domain: 'mylan.k8s',
    time_zone: 'China Standard Time',
    os_version: '10.0.17763',
    os_revision: 1158,
    hotfix_kb: 'KB4549949',
    cluster_pod_cidr: '10.160.0.0/12',
    service_cidr: '10.176.0.0/12',
    cluster_adapter: 'eth1',
    pause_image: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973',
    kube_proxy_account: 'NT AUTHORITY\\NetworkService',
  });
  t.deepEqual(node.vars.nics, [
    { mac: '00-15-00-00-00-01', name: 'eth0', ipv4: '172.16.126.216/24', gateway: '172.16.126.1' },
    {
      mac: '00-15-00-00-00-02',
      name: 'eth1',
      ipv4: '100.100.126.216/23',
      dns_servers: ['100.100.126.205', '100.100.126.206'],
    },
  ]);
  t.deepEqual(node.vars.ntp_servers, ['ntp1.mylan.k8s', 'ntp2.mylan.k8s']);
  t.is(node.vars.hotfix_msu, 'C:\\k\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu');
  t.like(node.connection, { address: '172.16.126.216', port: 22, user: 'Administrator', os: 'windows' });
  t.deepEqual(node.connection.password, new EnvRef('WINDOWS_ADMIN_PASSWORD'));
  t.is(resolveSecrets(node, { WINDOWS_ADMIN_PASSWORD: 'x-secret' }).password!.reveal(), 'x-secret');
});

test('ToR gateways: Linux, distinct priorities and router ids, a shared VRRP secret from the environment', (t) => {
  const tors = selectHosts(inv, 'tor');
  t.true(tors.every((h) => h.connection.os === 'linux' && h.vars.cluster_adapter === 'eth1'));
  t.deepEqual(
    tors.map((h) => h.vars.vrrp_priority),
    [150, 140, 130],
  );
  t.is(new Set(tors.map((h) => h.vars.vrrp_router_id)).size, 3);
  t.deepEqual(tors[0]!.vars.vrrp_auth_pass, new EnvRef('VRRP_AUTH_PASS'));
});

test('oracle: ansible-inventory --list accepts it, with the same groups and variables', async (t) => {
  requireAnsible();
  const { json, stderr } = await ansibleInventoryList(FILE);
  t.is(stderr.trim(), '');
  const meta = json._meta as { hostvars: Record<string, unknown> };
  for (const host of inv.hosts) t.deepEqual(JSON.parse(JSON.stringify(host.vars)), meta.hostvars[host.name], host.name);
  for (const [name, group] of inv.groups) {
    const theirs = (json[name] ?? {}) as { children?: string[] };
    t.deepEqual(group.children, theirs.children ?? [], `children of ${name}`);
  }
});
