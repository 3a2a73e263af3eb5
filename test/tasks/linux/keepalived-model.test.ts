// keepalived.conf as data: the validator's errors (each naming its field) and warnings, and the
// renderer, with the field note's config (docs/field-notes.md#a-upstream-tor-gateway) as the golden text.
// Long because it is tables: one row per validator error and warning, and the golden text.
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { MASK, Secret } from '../../../runner/core/secret.js';
import { FIELD_NOTE, fieldNoteConfig } from './keepalived-fixtures.js';
import {
  maskAuthPass,
  renderKeepalivedConf,
  renderKeepalivedConfMasked,
  validateKeepalivedConfig,
  type KeepalivedConfig,
} from '../../../tasks/linux/keepalived-model.js';

/** A deep copy with one setting changed by `edit`. */
function variant(edit: (c: any) => void, base: KeepalivedConfig = fieldNoteConfig('s3cret')): unknown {
  const copy = structuredClone({ ...base, instance: { ...base.instance, authPass: null } }) as any;
  copy.instance.authPass = base.instance.authPass;
  edit(copy);
  return copy;
}

test("golden: the field note's values render its text, but for the one line keepalived 2.x would misread", (t) => {
  const { config, warnings } = validateKeepalivedConfig(fieldNoteConfig());
  // Unquoted, `#` starts a comment (the note's password is really "lvs"); keepalived reads 8 characters.
  t.is(renderKeepalivedConf(config).reveal(), FIELD_NOTE.replace('auth_pass lvs#Win.Gate@Q1', 'auth_pass "lvs#Win."'));
  t.is(renderKeepalivedConfMasked(config), FIELD_NOTE.replace('auth_pass lvs#Win.Gate@Q1', `auth_pass ${MASK}`));
  t.deepEqual(
    warnings.map((w) => w.split(':')[0]!.split(' ')[0]),
    [
      'config.globalDefs.vrrpGarpInterval',
      'config.globalDefs.vrrpGnaInterval',
      'config.instance.authPass',
      'config.instance.authPass',
    ],
  );
  t.regex(warnings[0]!, /keepalived 2\.x rejects 'vrrp_garp_interval 0'/);
  t.regex(warnings[2]!, /is 15 characters; keepalived uses only the first 8/);
  t.regex(warnings[3]!, /'#' or '!', which start a comment/);
  t.false(warnings.join('\n').includes('Win.Gate'), 'a warning shows the password');
});

test('defaults: skip-check on, no intervals; a plain password is not quoted; the masked text masks exactly it', (t) => {
  const base = fieldNoteConfig('Pa55-w.d') as any;
  delete base.globalDefs;
  const { config, warnings } = validateKeepalivedConfig(base);
  t.deepEqual(warnings, []);
  const text = renderKeepalivedConf(config).reveal();
  t.true(text.includes('global_defs {\n   router_id LVS_WIN_GW_1\n   vrrp_skip_check_adv_addr\n}\n'));
  t.true(text.includes('        auth_pass Pa55-w.d\n'));
  t.is(maskAuthPass(text), renderKeepalivedConfMasked(config));
  t.false(renderKeepalivedConfMasked(config).includes('Pa55'));
  t.is(String(renderKeepalivedConf(config)), MASK, 'the content is a Secret');
});

test('deterministic: VIPs sorted by address as numbers, peers too, whatever the input order', (t) => {
  const vips = [
    { address: '10.160.11.1', prefix: 24, dev: 'eth1', label: 'eth1:11' },
    { address: '10.160.9.1', prefix: 24, dev: 'eth1', label: 'eth1:9' },
    { address: '10.160.100.1', prefix: 24, dev: 'eth1' },
  ];
  const a = validateKeepalivedConfig(
    variant((c) => {
      c.vips = vips;
    }),
  ).config;
  const b = validateKeepalivedConfig(
    variant((c) => {
      c.vips = [...vips].reverse();
      c.instance.unicastPeers.reverse();
    }),
  ).config;
  const text = renderKeepalivedConfMasked(a);
  t.is(text, renderKeepalivedConfMasked(b));
  t.true(
    text.includes(`    virtual_ipaddress {
        10.160.9.1/24 dev eth1 label eth1:9
        10.160.11.1/24 dev eth1 label eth1:11
        10.160.100.1/24 dev eth1
    }`),
  );
  t.true(text.includes('        100.100.126.203\n        100.100.126.204\n'));
  t.true(Object.isFrozen(a) && Object.isFrozen(a.vips) && Object.isFrozen(a.instance));
});

test('optional settings: no nopreempt, MASTER, fractional intervals without exponents', (t) => {
  const { config, warnings } = validateKeepalivedConfig(
    variant((c) => {
      c.instance.state = 'MASTER';
      c.instance.nopreempt = false;
      c.globalDefs = { vrrpSkipCheckAdvAddr: false, vrrpGarpInterval: 0.000001, vrrpGnaInterval: 2.5 };
    }),
  );
  t.deepEqual(warnings, []);
  const text = renderKeepalivedConfMasked(config);
  t.true(
    text.includes(
      'global_defs {\n   router_id LVS_WIN_GW_1\n   vrrp_garp_interval 0.000001\n   vrrp_gna_interval 2.5\n}',
    ),
  );
  t.true(text.includes('    state MASTER\n'));
  t.false(text.includes('nopreempt'));
  // 0.3 * 1e6 is not an integer in floating point; it still has 6 decimals at most.
  const point3 = validateKeepalivedConfig(
    variant((c) => {
      c.globalDefs = { vrrpGarpInterval: 0.3 };
    }),
  ).config;
  t.true(renderKeepalivedConfMasked(point3).includes('   vrrp_garp_interval 0.3\n'));
});

const errors: { name: string; edit: (c: any) => void; field: string; message: RegExp }[] = [
  {
    name: 'virtual_router_id 0',
    edit: (c) => {
      c.instance.virtualRouterId = 0;
    },
    field: 'config.instance.virtualRouterId',
    message: /\(virtual_router_id\) must be an integer 1-255, got number 0/,
  },
  {
    name: 'virtual_router_id 256',
    edit: (c) => {
      c.instance.virtualRouterId = 256;
    },
    field: 'config.instance.virtualRouterId',
    message: /1-255, got number 256/,
  },
  {
    name: 'virtual_router_id as a string',
    edit: (c) => {
      c.instance.virtualRouterId = '188';
    },
    field: 'config.instance.virtualRouterId',
    message: /got the string|got "188"/,
  },
  {
    name: 'priority 255 (address owner)',
    edit: (c) => {
      c.instance.priority = 255;
    },
    field: 'config.instance.priority',
    message: /\(priority\) must be an integer 1-254/,
  },
  {
    name: 'priority 0',
    edit: (c) => {
      c.instance.priority = 0;
    },
    field: 'config.instance.priority',
    message: /1-254/,
  },
  {
    name: 'fractional advert_int',
    edit: (c) => {
      c.instance.advertInt = 0.5;
    },
    field: 'config.instance.advertInt',
    message: /\(advert_int\) must be an integer 1-255/,
  },
  {
    name: 'state lowercase',
    edit: (c) => {
      c.instance.state = 'backup';
    },
    field: 'config.instance.state',
    message: /'MASTER' or 'BACKUP'/,
  },
  {
    name: 'nopreempt with MASTER',
    edit: (c) => {
      c.instance.state = 'MASTER';
    },
    field: 'config.instance.nopreempt',
    message: /needs state BACKUP/,
  },
  {
    name: 'unicast_src_ip not IPv4',
    edit: (c) => {
      c.instance.unicastSrcIp = '100.100.126';
    },
    field: 'config.instance.unicastSrcIp',
    message: /IPv4 address/,
  },
  {
    name: 'a peer with an octet > 255',
    edit: (c) => {
      c.instance.unicastPeers[1] = '100.100.126.256';
    },
    field: 'config.instance.unicastPeers[1]',
    message: /IPv4 address.*100\.100\.126\.256/,
  },
  {
    name: 'a peer with a leading zero (octal to inet_aton)',
    edit: (c) => {
      c.instance.unicastPeers[0] = '100.100.126.020';
    },
    field: 'config.instance.unicastPeers[0]',
    message: /IPv4 address/,
  },
  {
    name: 'a peer listed twice',
    edit: (c) => {
      c.instance.unicastPeers = ['1.1.1.1', '1.1.1.2', '1.1.1.1'];
    },
    field: 'config.instance.unicastPeers[2]',
    message: /1\.1\.1\.1 is listed twice \(also instance\.unicastPeers\[0\]\)/,
  },
  {
    name: 'own address as a peer',
    edit: (c) => {
      c.instance.unicastPeers.push('100.100.126.202');
    },
    field: 'config.instance.unicastPeers[2]',
    message: /own unicast_src_ip/,
  },
  {
    name: 'no peers',
    edit: (c) => {
      c.instance.unicastPeers = [];
    },
    field: 'config.instance.unicastPeers',
    message: /must list the other hosts/,
  },
  {
    name: 'interface too long',
    edit: (c) => {
      c.instance.interface = 'eth1234567890123';
    },
    field: 'config.instance.interface',
    message: /Linux interface name: 1-15/,
  },
  {
    name: 'interface with a space',
    edit: (c) => {
      c.instance.interface = 'eth 1';
    },
    field: 'config.instance.interface',
    message: /no spaces, slashes/,
  },
  {
    name: 'interface with a slash',
    edit: (c) => {
      c.instance.interface = 'eth/1';
    },
    field: 'config.instance.interface',
    message: /interface name/,
  },
  {
    name: 'interface ..',
    edit: (c) => {
      c.instance.interface = '..';
    },
    field: 'config.instance.interface',
    message: /interface name/,
  },
  {
    name: 'VIP address invalid',
    edit: (c) => {
      c.vips[0].address = '10.160.11';
    },
    field: 'config.vips[0].address',
    message: /\(virtual_ipaddress\) must be an IPv4 address/,
  },
  {
    name: 'VIP listed twice',
    edit: (c) => {
      c.vips.push(
        { address: '10.160.12.1', prefix: 24, dev: 'eth1' },
        { address: '10.160.11.1', prefix: 24, dev: 'eth1' },
      );
    },
    field: 'config.vips[2].address',
    message: /10\.160\.11\.1 is listed twice \(also vips\[0\]\)/,
  },
  {
    name: 'VIP prefix 33',
    edit: (c) => {
      c.vips[0].prefix = 33;
    },
    field: 'config.vips[0].prefix',
    message: /1-32/,
  },
  {
    name: 'VIP dev too long',
    edit: (c) => {
      c.vips[0].dev = 'averyverylongname';
      c.vips[0].label = undefined;
    },
    field: 'config.vips[0].dev',
    message: /interface name/,
  },
  {
    name: 'label too long',
    edit: (c) => {
      c.vips[0].label = 'eth1:abcdefghijk';
    },
    field: 'config.vips[0].label',
    message: /at most 15 characters/,
  },
  {
    name: 'label of another device',
    edit: (c) => {
      c.vips[0].label = 'eth2:1';
    },
    field: 'config.vips[0].label',
    message: /'eth1:' and a suffix/,
  },
  {
    name: 'label with a space',
    edit: (c) => {
      c.vips[0].label = 'eth1: 1';
    },
    field: 'config.vips[0].label',
    message: /label/,
  },
  {
    name: 'no VIPs',
    edit: (c) => {
      c.vips = [];
    },
    field: 'config.vips',
    message: /at least one VIP/,
  },
  {
    name: 'unknown VIP key',
    edit: (c) => {
      c.vips[0].labl = 'x';
    },
    field: 'config.vips[0].labl',
    message: /not a keepalived setting/,
  },
  {
    name: 'unknown instance key',
    edit: (c) => {
      c.instance.preempt_delay = 5;
    },
    field: 'config.instance.preempt_delay',
    message: /not a keepalived setting/,
  },
  {
    name: 'router_id with a space',
    edit: (c) => {
      c.routerId = 'LVS WIN';
    },
    field: 'config.routerId',
    message: /\(router_id\) must be one word/,
  },
  {
    name: 'instance name with a brace',
    edit: (c) => {
      c.instance.name = 'VI{';
    },
    field: 'config.instance.name',
    message: /\(vrrp_instance\) must be one word/,
  },
  {
    name: 'negative garp interval',
    edit: (c) => {
      c.globalDefs.vrrpGarpInterval = -1;
    },
    field: 'config.globalDefs.vrrpGarpInterval',
    message: /seconds/,
  },
  {
    name: 'interval with 7 decimals',
    edit: (c) => {
      c.globalDefs.vrrpGnaInterval = 0.0000001;
    },
    field: 'config.globalDefs.vrrpGnaInterval',
    message: /at most 6 decimals/,
  },
  {
    name: 'auth_pass as plain text',
    edit: (c) => {
      c.instance.authPass = 'secret';
    },
    field: 'config.instance.authPass',
    message: /must be a Secret .*got plain text/,
  },
  {
    name: 'auth_pass empty',
    edit: (c) => {
      c.instance.authPass = new Secret('', 'env:P');
    },
    field: 'config.instance.authPass',
    message: /must not be empty/,
  },
];

for (const e of errors) {
  test(`refused: ${e.name}`, (t) => {
    const err = t.throws(() => validateKeepalivedConfig(variant(e.edit)), { instanceOf: StepOptionError });
    t.is(err!.field, e.field);
    t.regex(err!.message, e.message);
    t.regex(err!.message, /^linux\.keepalivedConf: option /);
  });
}

test('refused without echoing the password: a quote, a backslash, a newline, non-ASCII', (t) => {
  for (const pass of ['ab"cd', 'ab\\cd', 'ab\ncd', 'pässwörd']) {
    const err = t.throws(
      () =>
        validateKeepalivedConfig(
          variant((c) => {
            c.instance.authPass = new Secret(pass, 'env:KA_PASS');
          }),
        ),
      { instanceOf: StepOptionError },
    );
    t.is(err!.field, 'config.instance.authPass');
    t.regex(err!.message, /from env:KA_PASS\) may hold printable ASCII except/);
    t.false(err!.message.includes(pass), err!.message);
  }
});

test('the step kind and root given by a caller name the field', (t) => {
  const err = t.throws(
    () =>
      validateKeepalivedConfig(
        variant((c) => {
          c.instance.priority = 300;
        }),
        'linux.tor',
        'tor.keepalived',
      ),
    { instanceOf: StepOptionError },
  );
  t.is(
    err!.message,
    "linux.tor: option 'tor.keepalived.instance.priority' (priority) must be an integer 1-254, got number 300",
  );
  t.throws(() => validateKeepalivedConfig(null), { message: /option 'config' must be an object, got null/ });
});

test("maskAuthPass masks any auth_pass line, as the probe's sed does, and nothing else", (t) => {
  t.is(
    maskAuthPass('a\n  auth_pass\tx y\n auth_pass "q#"\nauth_type PASS\nauth_pass\n'),
    `a\n  auth_pass ${MASK}\n auth_pass ${MASK}\nauth_type PASS\nauth_pass\n`,
  );
});
