// How long the e2e tests give keepalived to elect a holder of the VIPs after a start or a change:
// one constant for every test that waits for VRRP. An election takes about 4 s in the lab
// (docs/lab.md#vrrp-timings: advert_int 1, three missed adverts, then the master-down timer); 20 s
// leaves room for several election rounds on a loaded machine.
export const VRRP_SETTLE_MS = 20_000;
