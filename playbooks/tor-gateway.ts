// The Linux ToR gateway (docs/domain.md#the-tor-gateway), on the `tor` group: forwarding on,
// keepalived installed, configured and running, restarted when its config changed. What the tasks
// are built from (the VIP set, the vars' checks) is in shared/tor-gateway.ts, which onboard-windows
// shares.
import { definePlaybook } from '../runner/index.js';
import { keepalivedConf, kubectlValue, pkg, sysctl } from '../tasks/linux/index.js';
import { CONTROL_GROUP, GET_NODES_ARGS, kubectlOf, windowsNodeCidrs } from './shared/cluster.js';
import {
  checkTorVars,
  KEEPALIVED_CONF,
  keepalivedService,
  TOR_DEFAULTS,
  TOR_GROUP,
  torGatewayConfig,
} from './shared/tor-gateway.js';

export { KEEPALIVED_CONF, NODE_GROUP, TOR_DEFAULTS, TOR_GROUP, torGatewayConfig } from './shared/tor-gateway.js';

export default definePlaybook({
  name: 'tor-gateway',
  drift: true,
  description: "Linux ToR gateways: forwarding, keepalived VRRP holding each Windows node's pod gateway VIP",
  tasks: {
    forwarding: {
      on: TOR_GROUP,
      tags: ['sysctl'],
      description: 'net.ipv4.ip_forward = 1, live and persisted',
      step: sysctl({ key: 'net.ipv4.ip_forward', value: 1, file: TOR_DEFAULTS.sysctl_file }),
    },
    package: {
      on: TOR_GROUP,
      tags: ['keepalived'],
      description: 'keepalived installed',
      step: pkg({ name: 'keepalived' }),
    },
    // Delegated per tor host, so --limit on tor hosts still reads the cluster; optional, so an inventory
    // without a control group uses the pod_cidr vars alone.
    clusterNodes: {
      on: TOR_GROUP,
      tags: ['keepalived'],
      delegateTo: CONTROL_GROUP,
      optional: true,
      description: 'the pod CIDRs the cluster allocated, read on a master (when the inventory has a control group)',
      step: ({ runsOn }) => kubectlValue({ kubectl: kubectlOf(runsOn), args: GET_NODES_ARGS }),
    },
  },
})
  // The config reads the cluster's pod CIDRs above.
  .andThen({
    config: {
      on: TOR_GROUP,
      tags: ['keepalived'],
      needs: ['package', 'clusterNodes'],
      description: 'keepalived.conf: one VIP per Windows node, checked with keepalived -t',
      step: (ctx) => {
        checkTorVars(ctx);
        const cluster = ctx.optionalOutput('clusterNodes');
        return keepalivedConf({
          path: KEEPALIVED_CONF,
          config: torGatewayConfig(ctx, cluster ? windowsNodeCidrs(ctx.inventory, cluster.value) : {}),
        });
      },
    },
    // Before `service`: a changed config restarts a running keepalived, or starts a stopped one
    // (then `service` has nothing to do), so a daemon is never started and restarted in one run.
    restart: {
      on: TOR_GROUP,
      tags: ['keepalived'],
      triggeredBy: ['config'],
      description: 'restart keepalived when its config changed',
      step: ({ runsOn }) => keepalivedService(runsOn, true),
    },
    service: {
      on: TOR_GROUP,
      tags: ['keepalived'],
      needs: ['forwarding', 'restart'],
      description: 'keepalived running (and enabled where systemd runs)',
      step: ({ runsOn }) => keepalivedService(runsOn, false),
    },
  });
