// keepalived settings beyond the one-field refusals keepalived-model.test.ts pins: a missing setting,
// a Secret where the config goes, an unknown setting in globalDefs, and which problem is reported
// when there are several. Whole messages, compared as a table.
import test from 'ava';
import { Secret } from '../../../runner/core/secret.js';
import { validateKeepalivedConfig } from '../../../tasks/linux/keepalived-model.js';

const base = () => ({
  routerId: 'tor1',
  instance: {
    name: 'VI_1',
    state: 'BACKUP',
    interface: 'eth1',
    virtualRouterId: 51,
    priority: 100,
    authPass: new Secret('abc', 'env:KA_PASS'),
    unicastSrcIp: '10.0.0.2',
    unicastPeers: ['10.0.0.3'],
  },
  vips: [{ address: '10.160.11.1', prefix: 24, dev: 'eth1' }],
});

function refusal(input: unknown): string {
  try {
    validateKeepalivedConfig(input);
    return 'accepted';
  } catch (e) {
    return (e as Error).message;
  }
}

test('refusals: whole messages', (t) => {
  const b = base();
  const table: [input: unknown, message: string][] = [
    [b, 'accepted'],
    [new Secret('x', 'env:X'), "linux.keepalivedConf: option 'config' must be an object, got a secret"],
    [
      { ...b, instance: { ...b.instance, priority: undefined } },
      "linux.keepalivedConf: option 'config.instance.priority' (priority) must be an integer 1-254, got nothing",
    ],
    [
      { ...b, globalDefs: { vrrpGarpInterval: 1, garp: 1 } },
      "linux.keepalivedConf: option 'config.globalDefs.garp' is not a keepalived setting here (known: vrrpSkipCheckAdvAddr, vrrpGarpInterval, vrrpGnaInterval)",
    ],
    [
      { ...b, routerId: 'a b', vips: [{ address: '10.160.11.1', prefix: 24, dev: 'eth1', lable: 'x' }] },
      "linux.keepalivedConf: option 'config.vips[0].lable' is not a keepalived setting here (known: address, prefix, dev, label)",
    ],
    [
      { ...b, routerId: 'a b', vips: [] },
      'linux.keepalivedConf: option \'config.routerId\' (router_id) must be one word of letters, digits and _ . : @ + -, got "a b"',
    ],
    [
      { ...b, instance: { ...b.instance, unicastPeers: ['10.0.0.3', '10.0.0.2'] } },
      "linux.keepalivedConf: option 'config.instance.unicastPeers[1]' is this host's own unicast_src_ip 10.0.0.2",
    ],
  ];
  t.deepEqual(
    table.map(([input]) => [input, refusal(input)]),
    table,
  );
});
