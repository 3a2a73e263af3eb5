// Configs for the keepalived tests: the field note's (docs/field-notes.md#a-upstream-tor-gateway), verbatim, and its values as data.
import { Secret } from '../../../runner/core/secret.js';
import type { KeepalivedConfig } from '../../../tasks/linux/keepalived-model.js';

// Verbatim from field note A.
export const FIELD_NOTE = `! Configuration File for keepalived

global_defs {
   router_id LVS_WIN_GW_1
   vrrp_skip_check_adv_addr
   vrrp_garp_interval 0
   vrrp_gna_interval 0
}

vrrp_instance VI_MYLAN_K8S_WIN_GATE_ETH1 {
    state BACKUP
    interface eth1
    virtual_router_id 188
    priority 150
    nopreempt
    advert_int 1
    authentication {
        auth_type PASS
        auth_pass lvs#Win.Gate@Q1
    }

    unicast_src_ip 100.100.126.202
    unicast_peer {
        100.100.126.203
        100.100.126.204
    }

    virtual_ipaddress {
        10.160.11.1/24 dev eth1 label eth1:1
    }
}
`;

export function fieldNoteConfig(pass = 'lvs#Win.Gate@Q1'): KeepalivedConfig {
  return {
    routerId: 'LVS_WIN_GW_1',
    globalDefs: { vrrpSkipCheckAdvAddr: true, vrrpGarpInterval: 0, vrrpGnaInterval: 0 },
    instance: {
      name: 'VI_MYLAN_K8S_WIN_GATE_ETH1',
      state: 'BACKUP',
      interface: 'eth1',
      virtualRouterId: 188,
      priority: 150,
      nopreempt: true,
      advertInt: 1,
      authPass: new Secret(pass, 'env:KEEPALIVED_PASS'),
      unicastSrcIp: '100.100.126.202',
      unicastPeers: ['100.100.126.204', '100.100.126.203'],
    },
    vips: [{ address: '10.160.11.1', prefix: 24, dev: 'eth1', label: 'eth1:1' }],
  };
}

/** A config keepalived 2.2.7 accepts inside a test namespace (eth1 198.18.5.1/24, see netns.ts). */
export function labConfig(vips: readonly string[] = ['198.18.6.1'], pass = 'lab-pass'): KeepalivedConfig {
  return {
    routerId: 'PLAY_TEST',
    instance: {
      name: 'VI_PLAY_TEST',
      state: 'BACKUP',
      interface: 'eth1',
      virtualRouterId: 188,
      priority: 150,
      nopreempt: true,
      advertInt: 1,
      authPass: new Secret(pass, 'env:KA_PASS'),
      unicastSrcIp: '198.18.5.1',
      unicastPeers: ['198.18.5.2', '198.18.5.3'],
    },
    vips: vips.map((address, i) => ({ address, prefix: 24, dev: 'eth1', label: `eth1:${i + 1}` })),
  };
}
