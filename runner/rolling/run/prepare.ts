// Everything a rolling run checks and builds before any host is touched: the control host, the notices'
// URL, the alert gate, every step (prebuilt), every secret, the key files; then the session's parts:
// the task runs, the cluster and its Lease, the node gate, the waivers, the connections.
import { configuredPoolOptions } from '../../ansible-config/run-settings.js';
import { defaultWaiversFile, inventoryResolver, loadWaiversIfPresent } from '../../drift/waivers.js';
import { InputError } from '../../core/errors.js';
import { resolveSecrets } from '../../inventory/load.js';
import type { Host, Inventory } from '../../inventory/model.js';
import { selectHosts } from '../../inventory/pattern.js';
import { RunOutputs } from '../../report/run-output.js';
import { HostSession } from '../../run/host-session.js';
import { ConnectionPool } from '../../transport/pool.js';
import { alertGateCheck } from '../alert-gate/check.js';
import { KubectlCluster, kubectlOf } from '../cluster.js';
import { ClusterLease } from '../cluster-lease.js';
import { runGateOf } from '../gate/session-io.js';
import { GraphRuns, type GraphRunsOptions } from '../graph-runs.js';
import type { RollingPolicy } from '../model.js';
import { checkNotifyUrl } from '../notify-queue.js';
import { hotfixKbsOf } from '../quarantine-check.js';
import { stagingPlaybook } from '../stage-run.js';
import type { CommandLineReaders, RollingRunOptions, RollingTarget } from './options.js';
import { nodeNameOfHost, type RollingSession } from './session.js';

export type PreparedSession = RollingSession & { close(): Promise<void> };

/** The control host where kubectl runs, and kubectl's path on it (host var `kubectl`). */
function controlOf(inventory: Inventory, policy: RollingPolicy, file: string): { host: Host; kubectl: string } | null {
  if (policy.control === null) return null;
  const host = selectHosts(inventory, policy.control)[0];
  if (!host)
    throw new InputError(
      `${file}: rolling.control '${policy.control}' matches no host of the inventory (the run cordons and drains nodes with kubectl there)`,
    );
  return { host, kubectl: kubectlOf(host) };
}

/** The run's outputs (-v, --events, --log) and its connections, each host's secrets read once. */
function connectionsOf(args: RollingRunOptions, target: RollingTarget) {
  const { out, err } = target;
  const secrets = new Map<string, ReturnType<typeof resolveSecrets>>();
  const secretsOf = (h: Host) => {
    if (!secrets.has(h.name)) secrets.set(h.name, resolveSecrets(h));
    return secrets.get(h.name)!;
  };
  // -v, --events and --log see each node's task runs (its check and its apply) as a playbook run's.
  const outputs = new RunOutputs({
    verbosity: args.verbosity ?? 0,
    events: args.events,
    log: args.log,
    view: RunOutputs.consoleOf(args, out, err),
    stdout: out,
    live: false,
  });
  const pool = new ConnectionPool({
    knownHostsFile: args.knownHosts,
    ...configuredPoolOptions(args.acceptNew, err),
    handshakes: { global: args.forks },
    trace: outputs.connectionTrace(),
  });
  return { outputs, pool, secretsOf, connect: (h: Host) => pool.shell(h, secretsOf(h)) };
}

/** The playbook's task runs (and its staging tasks' for --stage), every step prebuilt: bad options stop here. */
function graphRunsOf(
  args: RollingRunOptions,
  target: RollingTarget,
  extraVars: Record<string, unknown>,
  c: Pick<ReturnType<typeof connectionsOf>, 'connect' | 'pool' | 'outputs'>,
) {
  const runOptions: GraphRunsOptions = {
    playbook: target.playbook,
    inventory: target.inventory,
    limit: args.limit,
    extraVars,
    forks: args.forks,
    timeoutMs: args.timeout * 1000,
    connect: c.connect,
    release: (name) => void c.pool.release(name),
    onEvent: (e) => c.outputs.onEvent(e),
  };
  const runs = new GraphRuns(runOptions);
  runs.prebuild();
  const stageRuns = args.stage ? new GraphRuns({ ...runOptions, playbook: stagingPlaybook(target.playbook) }) : null;
  stageRuns?.prebuild();
  return { runs, stageRuns };
}

export async function prepare(
  args: RollingRunOptions,
  readers: CommandLineReaders,
  policy: RollingPolicy,
  target: RollingTarget,
): Promise<PreparedSession> {
  const { playbook, playbookFile, inventory, out, err, signal } = target;
  const control = controlOf(inventory, policy, playbookFile);
  checkNotifyUrl(args.overrides.notify);
  const alertGate = policy.prometheusGate ? alertGateCheck(policy.prometheusGate, process.env) : null;
  const hostsByName = new Map(inventory.hosts.map((h) => [h.name, h]));
  const { outputs, pool, secretsOf, connect } = connectionsOf(args, target);
  const extraVars = readers.extraVarsOf(args.extraVars);
  const { runs, stageRuns } = graphRunsOf(args, target, extraVars, { connect, pool, outputs });
  const targets = runs.targets();
  const involved = [...targets, ...(control ? [control.host] : [])];
  for (const h of involved) secretsOf(h);
  readers.checkBeforeHosts(involved);
  const controlSession = control ? new HostSession(control.host, connect) : null;
  return {
    args,
    playbook,
    playbookFile,
    policy,
    runs,
    stageRuns,
    targets,
    // The file play drift reads: a waiver of this playbook's task keeps a node out of the rollout.
    waivers: loadWaiversIfPresent(defaultWaiversFile(inventory.file)),
    resolve: inventoryResolver(inventory),
    inventoryNodes: inventory.hosts.map(nodeNameOfHost),
    cluster: controlSession ? new KubectlCluster(controlSession, control!.kubectl) : null,
    clusterLease: controlSession
      ? (holder, durationSec) => new ClusterLease(controlSession, control!.kubectl, holder, durationSec)
      : null,
    // Only with a cluster: the gate looks at a node once it is Ready again.
    gate: control
      ? runGateOf(playbook.gate, {
          inventory,
          control,
          connect,
          timeoutMs: args.timeout * 1000,
          extraVars,
          nodeName: nodeNameOfHost,
        })
      : null,
    alertGate,
    hotfixKbs: hotfixKbsOf(playbook, inventory, args.limit, extraVars),
    remoteOf: (name) => new HostSession(hostsByName.get(name)!, connect),
    reachable: async (name) => {
      const h = hostsByName.get(name)!;
      await pool.release(name);
      return pool.get(h, secretsOf(h)).then(
        () => true,
        () => false,
      );
    },
    out,
    err,
    signal,
    close: async () => {
      await pool.closeAll();
      outputs.close();
    },
  };
}
