// The lab's jump hosts, pure: bastion1.. with a leg on each bridge, private1.. on the private bridge
// only, their addresses, names and flags, and the inventory groups that reach them through the bastion.
import test from 'ava';
import YAML from 'yaml';
import { inventoryYaml } from '../../lab/inventory.js';
import {
  PRIVATE_BRIDGE,
  hostOfVeth,
  inLabRange,
  mergeCounts,
  parseHostName,
  planHost,
  planTopology,
} from '../../lab/hosts/topology.js';
import { UsageError } from '../../runner/core/errors.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test('bastions have a leg on each bridge; the hosts behind them are on the private bridge, with no route out', (t) => {
  const plan = planTopology({ linux: 1, tor: 0, windows: 0, bastion: 2, private: 2 });
  t.deepEqual(
    plan.map((h) => [h.name, h.group, h.address, h.veth, h.bridge ?? 'playlab0', h.routes, h.privateLeg]),
    [
      ['linux1', 'linux', '198.18.0.101', 'pl-linux1', 'playlab0', ['198.18.0.0/15'], undefined],
      [
        'bastion1',
        'bastion',
        '198.18.2.1',
        'pl-bastion1',
        'playlab0',
        ['198.18.0.0/15'],
        { iface: 'eth2', address: '198.18.32.1', prefixLength: 24, mac: '02:00:c6:12:20:01', veth: 'plp-bastion1' },
      ],
      [
        'bastion2',
        'bastion',
        '198.18.2.2',
        'pl-bastion2',
        'playlab0',
        ['198.18.0.0/15'],
        { iface: 'eth2', address: '198.18.32.2', prefixLength: 24, mac: '02:00:c6:12:20:02', veth: 'plp-bastion2' },
      ],
      ['private1', 'private', '198.18.32.11', 'pl-private1', PRIVATE_BRIDGE, [], undefined],
      ['private2', 'private', '198.18.32.12', 'pl-private2', PRIVATE_BRIDGE, [], undefined],
    ],
  );
  const last = [planHost('bastion', 9), planHost('private', 244)];
  t.deepEqual(
    last.map((h) => [h.name, h.address, h.privateLeg?.address]),
    [
      ['bastion9', '198.18.2.9', '198.18.32.9'],
      ['private244', '198.18.32.254', undefined],
    ],
  );
  t.true(last.every((h) => inLabRange(h.address) && h.veth.length <= 15));
});

test('names, veths and counts of the jump groups; a lab without them keeps its counts as they were', (t) => {
  t.deepEqual(['bastion3', 'private12', 'bastion10', 'private245', 'private0'].map(parseHostName), [
    { group: 'bastion', index: 3 },
    { group: 'private', index: 12 },
    undefined,
    undefined,
    undefined,
  ]);
  t.deepEqual(['pl-bastion1', 'pl-private7', 'plp-bastion1'].map(hostOfVeth), ['bastion1', 'private7', undefined]);
  t.deepEqual(mergeCounts({ linux: 4, tor: 0, windows: 0, control: 0 }, { linux: 0, tor: 1 }), {
    linux: 4,
    tor: 1,
    windows: 0,
    control: 0,
  });
  t.deepEqual(mergeCounts({ linux: 4, tor: 0, windows: 0, control: 0, private: 20, bastion: 1 }, { private: 2 }), {
    linux: 4,
    tor: 0,
    windows: 0,
    control: 0,
    bastion: 1,
    private: 20,
  });
  const refused = (counts: Parameters<typeof planTopology>[0]) =>
    t.throws(() => planTopology(counts), { instanceOf: UsageError })?.message;
  t.deepEqual(
    [
      refused({ linux: 0, tor: 0, windows: 0, private: 2 }),
      refused({ linux: 0, tor: 0, windows: 0, bastion: 10 }),
      refused({ linux: 0, tor: 0, windows: 0, bastion: 1, private: 245 }),
    ],
    [
      '--behind-bastion 2: hosts behind a bastion need one: add --bastion 1',
      '--bastion 10: the lab can have 0..9 bastion hosts (a whole number)',
      '--behind-bastion 245: the lab can have 0..244 private hosts (a whole number)',
    ],
  );
});

test("the inventory's private group jumps through bastion1, which play reads as a jump host", (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-lab-jump-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files = { key: join(dir, 'id_ed25519'), knownHosts: join(dir, 'known_hosts') };
  const text = inventoryYaml(planTopology({ linux: 1, tor: 0, windows: 0, bastion: 1, private: 2 }), files);
  const doc = YAML.parse(text);
  t.deepEqual(Object.keys(doc.all.children), ['linux', 'tor', 'bastion', 'private']);
  t.deepEqual(doc.all.children.bastion, { hosts: { bastion1: { ansible_host: '198.18.2.1' } } });
  t.deepEqual(doc.all.children.private, {
    vars: { ansible_ssh_common_args: `-o UserKnownHostsFile=${files.knownHosts} -o ProxyJump=root@198.18.2.1` },
    hosts: { private1: { ansible_host: '198.18.32.11' }, private2: { ansible_host: '198.18.32.12' } },
  });
  writeFileSync(join(dir, 'inventory.yaml'), text);
  const inv = loadInventory(join(dir, 'inventory.yaml'));
  const jump = {
    hostName: '198.18.2.1',
    address: '198.18.2.1',
    port: 22,
    user: 'root',
    keyFile: files.key,
    keyFrom: 'ansible_ssh_private_key_file', // an address bastion: the host's own key
  };
  t.deepEqual(
    ['linux1', 'bastion1', 'private1'].map((h) => [
      inv.host(h)!.connection.jump,
      inv.host(h)!.connection.knownHostsFile,
    ]),
    [
      [undefined, files.knownHosts],
      [undefined, files.knownHosts],
      [jump, files.knownHosts],
    ],
  );
  t.false('bastion' in YAML.parse(inventoryYaml([planHost('linux', 1)], files)).all.children);
});
