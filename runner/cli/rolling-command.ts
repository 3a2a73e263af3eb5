// `play PLAYBOOK` for a playbook that declares `rolling` (play hotfix-windows), or any playbook with
// --serial: plan every targeted host, then batches with the journal and its lock in the state store;
// `--check` prints the plan; `--resume` continues the last unfinished run on the inventory.
// Exit codes (README): 0 done, 2 (--check) work planned, 3 a node failed or the run stopped, 69 the
// lock is held, 75 paused outside the maintenance window, 130 interrupted.
import type { Writable } from 'node:stream';
import { InputError, UsageError } from '../core/errors.js';
import { resolveSecrets } from '../inventory/load.js';
import type { Host, Inventory } from '../inventory/model.js';
import { selectHosts } from '../inventory/pattern.js';
import { defaultWaiversFile, inventoryResolver, loadWaiversIfPresent } from '../drift/waivers.js';
import type { Playbook } from '../playbook/define.js';
import { RunOutputs } from '../report/run-output.js';
import { HostSession } from '../run/host-session.js';
import { KubectlCluster, kubectlOf } from '../rolling/cluster.js';
import { ClusterLease } from '../rolling/cluster-lease.js';
import { runGateOf } from '../rolling/gate/session-io.js';
import { GraphRuns, type GraphRunsOptions } from '../rolling/graph-runs.js';
import type { RollingPolicy } from '../rolling/model.js';
import { rollingPolicy, type RollingOverrides } from '../rolling/policy.js';
import { RollingOptionError } from '../rolling/serial.js';
import { changedSources, type SourceHashes, sourceHashes } from '../rolling/source-hash.js';
import { inventoryKey, inventorySources } from '../rolling/inventory-key.js';
import { hotfixKbsOf, refuseQuarantinedIn } from '../rolling/quarantine-check.js';
import { alertGateCheck } from '../rolling/alert-gate/check.js';
import { checkNotifyUrl } from '../rolling/notify-queue.js';
import { configuredPoolOptions } from '../ansible-config/run-settings.js';
import { leaseClaim } from '../state/lease-claim.js';
import { openStore } from '../state/open-store.js';
import { ConnectionPool } from '../transport/pool.js';
import type { RolloutRecord, StateStore } from '../state/store.js';
import { flagOf } from './coerce.js';
import { parseExtraVars } from './extra-vars.js';
import { nodeNameOfHost, type RollingSession, rollingApply, rollingCheck } from './rolling-run.js';
import { stagingApply, stagingCheck } from '../rolling/stage-command.js';
import { stagingPlaybook, stagingRunName } from '../rolling/stage-run.js';
import type { RollingArgs } from './run-args.js';
import { checkKeyFiles, checkReportFile } from './run-checks.js';

/** Playbook problems are the playbook's (65); flag problems the command line's (64). */
function policyFor(playbook: Playbook, file: string, overrides: RollingOverrides): RollingPolicy {
  try {
    return rollingPolicy(playbook.rolling ?? {}, overrides, file);
  } catch (e) {
    if (!(e instanceof RollingOptionError)) throw e;
    throw String(e.field).startsWith('--') ? new UsageError(e.message) : new InputError(e.message);
  }
}

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

/** The options a run works with: the command line's, or for --resume the run's own (recorded). */
interface Effective {
  readonly limit?: string;
  readonly extraVars: readonly string[];
  readonly policy: RollingPolicy;
  readonly resume: RolloutRecord | null;
  /** A staging run (--stage, or the staging run being resumed). */
  readonly stage: boolean;
}

async function effective(
  args: RollingArgs,
  playbook: Playbook,
  file: string,
  store: StateStore | null,
  key: string,
): Promise<Effective> {
  const policy = policyFor(playbook, file, args.overrides);
  const stage = args.stage === true;
  if (!args.resume || !store) return { limit: args.limit, extraVars: args.extraVars, policy, resume: null, stage };
  const given = [
    ...Object.entries(args.overrides)
      // --notify is where this invocation's notices go, not an option of the run: a resume may name one.
      .filter(([k, v]) => v !== undefined && k !== 'notify')
      .map(([k]) => flagOf(k)),
    ...(args.limit !== undefined ? ['--limit'] : []),
    ...(args.extraVars.length ? ['-e'] : []),
  ];
  const found =
    args.resumeRun === undefined
      ? await store.rollouts.latestUnfinished(key, stage ? stagingRunName(playbook.name) : playbook.name)
      : await store.rollouts.get(args.resumeRun);
  if (!found)
    throw new UsageError(
      `--resume: no unfinished ${stage ? stagingRunName(playbook.name) : playbook.name} run on this inventory in ${store.location} (play rollouts list shows the runs)`,
    );
  if (given.length)
    throw new UsageError(
      `--resume continues run ${found.id} with the options it started with; drop ${given.join(', ')}`,
    );
  const a = found.args as {
    limit?: string | null;
    extraVars?: string[];
    policy?: RollingPolicy;
    sources?: SourceHashes;
    stage?: boolean;
  };
  if (a.sources && !args.allowChanged) {
    const changed = changedSources(a.sources, sourceHashes(file, inventorySources(key)));
    if (changed.length)
      throw new UsageError(
        `run ${found.id} started with other files: ${changed.join(' and ')} here differ from what it was started with ` +
          `(another checkout, or edited since); resume with these files anyway with --allow-changed`,
      );
  }
  const resumed = { limit: a.limit ?? undefined, extraVars: a.extraVars ?? [], policy: a.policy ?? policy };
  return { ...resumed, resume: found, stage: a.stage === true };
}

/** What a rolling run is of and where it reports: the loaded playbook and inventory, the streams. */
export interface RollingTarget {
  readonly playbook: Playbook;
  readonly playbookFile: string;
  readonly inventory: Inventory;
  readonly out: Writable;
  readonly err: Writable;
  readonly signal?: AbortSignal;
}

export async function rollingCommand(args: RollingArgs, target: RollingTarget): Promise<number> {
  const { playbook, playbookFile, inventory } = target;
  const key = inventoryKey(inventory);
  const store = args.check ? null : await openStore(args.state);
  try {
    const eff = await effective(args, playbook, playbookFile, store, key);
    const given = { ...args, limit: eff.limit, extraVars: [...eff.extraVars], stage: eff.stage };
    const session = await prepare(given, eff.policy, target);
    try {
      const who = { inventoryKey: key, claim: leaseClaim(), resume: eff.resume };
      if (eff.stage) return await (store ? stagingApply(session, store, who) : stagingCheck(session));
      if (!store) return await rollingCheck(session);
      // A quarantined KB (a rollback's) is refused before anything starts; a resumed run already began.
      if (!eff.resume) await refuseQuarantinedIn(store, session.hotfixKbs ?? new Map());
      return await rollingApply(session, store, who);
    } finally {
      await session.close();
    }
  } finally {
    await store?.close();
  }
}

/** Everything checked and built before any host is touched: steps, secrets, key files, the control host. */
async function prepare(
  args: RollingArgs,
  policy: RollingPolicy,
  target: RollingTarget,
): Promise<RollingSession & { close(): Promise<void> }> {
  const { playbook, playbookFile, inventory, out, err, signal } = target;
  const control = controlOf(inventory, policy, playbookFile);
  checkNotifyUrl(args.overrides.notify);
  const alertGate = policy.prometheusGate ? alertGateCheck(policy.prometheusGate, process.env) : null;
  const hostsByName = new Map(inventory.hosts.map((h) => [h.name, h]));
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
    trace: outputs.connectionTrace(),
  });
  const extraVars = parseExtraVars(args.extraVars, process.env, args.vault);
  const runOptions: GraphRunsOptions = {
    playbook,
    inventory,
    limit: args.limit,
    extraVars,
    forks: args.forks,
    timeoutMs: args.timeout * 1000,
    connect: (h) => pool.shell(h, secretsOf(h)),
    release: (name) => void pool.release(name),
    onEvent: (e) => outputs.onEvent(e),
  };
  const runs = new GraphRuns(runOptions);
  runs.prebuild();
  const stageRuns = args.stage ? new GraphRuns({ ...runOptions, playbook: stagingPlaybook(playbook) }) : null;
  stageRuns?.prebuild();
  const targets = runs.targets();
  const involved = [...targets, ...(control ? [control.host] : [])];
  for (const h of involved) secretsOf(h);
  checkKeyFiles(involved);
  if (args.report) checkReportFile(args.report);
  const controlSession = control ? new HostSession(control.host, (h) => pool.shell(h, secretsOf(h))) : null;
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
          connect: (h) => pool.shell(h, secretsOf(h)),
          timeoutMs: args.timeout * 1000,
          extraVars,
          nodeName: nodeNameOfHost,
        })
      : null,
    alertGate,
    hotfixKbs: hotfixKbsOf(playbook, inventory, args.limit, extraVars),
    remoteOf: (name) => new HostSession(hostsByName.get(name)!, (h) => pool.shell(h, secretsOf(h))),
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
