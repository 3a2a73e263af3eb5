// kubectl drain against the simulated cluster (lab/cluster/, a TEST DOUBLE), as kubectl's drain does it
// (docs/lab.md, "Simulated cluster", has the texts and their sources): cordon; sort the node's pods
// through kubectl's filters (DaemonSet, local storage, no controller); refuse them all if one is refused;
// else evict every pod, retrying a 429 every 5 s until --timeout, then fail naming the pods left. The
// node stays cordoned when the drain fails, as with kubectl.
// The 5 s retries run on the drain's own clock: by default no real time passes (the state's
// evictionRetrySleepMs makes each retry take that many real ms, so another process can act meanwhile).
import { type KubectlResult, KubectlError, notImplemented, oneNode, type Parsed } from './args.js';
import { type ClusterState, readClusterState, sleepSync, updateClusterState } from './cluster-state.js';
import { setCordon } from './cordon.js';
import { evict } from './eviction.js';
import { appendEvents, type EventActor, type NewEvent } from './events.js';
import { goDuration, parseGoDuration } from './format.js';
import { type ClusterPod, podKey, podsOf, schedulePending } from './pods.js';

const RETRY_MS = 5000;
const FILTERS = [
  ['DaemonSet-managed Pods (use --ignore-daemonsets to ignore)', 'ignoring DaemonSet-managed Pods'],
  ['Pods with local storage (use --delete-emptydir-data to override)', ''],
  ['Pods that declare no controller (use --force to override)', 'deleting Pods that declare no controller'],
] as const;

interface DrainOptions {
  node: string;
  ignoreDaemonSets: boolean;
  deleteEmptyDir: boolean;
  force: boolean;
  /** 0: no limit. */
  timeoutMs: number;
}

function options(p: Parsed): DrainOptions {
  const timeoutMs = p.timeout === undefined ? 0 : parseGoDuration(p.timeout);
  if (timeoutMs === undefined)
    throw new KubectlError(
      `Error: invalid argument "${p.timeout}" for "--timeout" flag: time: invalid duration "${p.timeout}"`,
    );
  if (p.gracePeriod !== undefined && !/^-?\d+$/.test(p.gracePeriod))
    throw new KubectlError(
      `Error: invalid argument "${p.gracePeriod}" for "--grace-period" flag: strconv.ParseInt: parsing "${p.gracePeriod}": invalid syntax`,
    );
  return {
    node: oneNode(p, 'drain'),
    ignoreDaemonSets: p.flags.has('--ignore-daemonsets'),
    deleteEmptyDir: p.flags.has('--delete-emptydir-data'),
    force: p.flags.has('--force'),
    timeoutMs,
  };
}

/** kubectl's pod filters: which pods to evict, the warning to print, the errors that stop the drain. */
export function sortPods(
  pods: readonly ClusterPod[],
  o: DrainOptions,
): { evict: ClusterPod[]; warning: string; errors: string[] } {
  const evictList: ClusterPod[] = [];
  const errors: string[][] = [[], [], []];
  const warnings: string[][] = [[], [], []];
  for (const p of pods) {
    const id = podKey(p);
    if (p.owner?.kind === 'DaemonSet') (o.ignoreDaemonSets ? warnings : errors)[0]!.push(id);
    else if (p.emptyDir && !o.deleteEmptyDir) errors[1]!.push(id);
    else if (!p.owner && !o.force) errors[2]!.push(id);
    else {
      if (!p.owner) warnings[2]!.push(id);
      evictList.push(p);
    }
  }
  const say = (ids: string[][], which: 0 | 1) =>
    FILTERS.flatMap((f, i) => (ids[i]!.length ? [`${f[which]}: ${ids[i]!.join(', ')}`] : []));
  return {
    evict: evictList,
    warning: say(warnings, 1).join('; '),
    errors: say(errors, 0).map((e) => `cannot delete ${e}`),
  };
}

/** Go's utilerrors aggregate: one error as is, several as [a, b]. */
const aggregate = (errs: readonly string[]) => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

function failed(node: string, errs: readonly string[]): string {
  return (
    `error: unable to drain node "${node}" due to error: ${aggregate(errs)}, continuing command...\n` +
    `There are pending nodes to be drained:\n ${node}\n${errs.map((e) => `${e}\n`).join('')}`
  );
}

const podsOn = (s: ClusterState, node: string) => podsOf(s).filter((p) => p.nodeName === node);

interface Round {
  out: string;
  err: string;
  done: string[];
  failures: string[];
}

/** One round of eviction requests, under the state's lock; the refusals stay pending. */
function evictRound(file: string, pending: string[], seconds: number, who: EventActor): Round {
  return updateClusterState(file, (s) => {
    schedulePending(s);
    const r: Round = { out: '', err: '', done: [], failures: [] };
    const allowed = new Map<string, number>();
    const events: NewEvent[] = [];
    const evicted: string[] = [];
    for (const key of pending) {
      const [ns, name] = key.split('/') as [string, string];
      r.out += `evicting pod ${key}\n`;
      const a = evict(s, key, allowed, new Date());
      if (a.code === 201 || a.code === 404) r.done.push(key);
      if (a.code === 201) {
        evicted.push(name);
        const replacement = a.replacement && {
          pod: podKey(a.replacement),
          ...(a.replacement.nodeName ? { node: a.replacement.nodeName } : {}),
        };
        events.push({ kind: 'eviction', pod: key, drainSeconds: seconds, ...(replacement ? { replacement } : {}) });
      } else if (a.code === 429) {
        r.err += `error when evicting pods/"${name}" -n "${ns}" (will retry after ${goDuration(RETRY_MS)}): ${a.message}\n`;
        events.push({
          kind: 'eviction-refused',
          pod: key,
          pdb: podKey(a.pdb),
          reason: a.message,
          drainSeconds: seconds,
        });
      } else if (a.code === 500) {
        r.failures.push(`error when evicting pods/"${name}" -n "${ns}": ${a.message}`);
        r.done.push(key);
      }
    }
    r.out += evicted.map((n) => `pod/${n} evicted\n`).join('');
    appendEvents(file, s, who, events);
    return r;
  });
}

/** Evicts until every pod is gone or the timeout passes; returns the output and the errors. */
function evictAll(
  file: string,
  keys: string[],
  o: DrainOptions,
  who: EventActor,
): { out: string; err: string; errors: string[] } {
  let pending = keys;
  const res = { out: '', err: '', errors: [] as string[] };
  for (let ms = 0; pending.length > 0; ms += RETRY_MS) {
    if (o.timeoutMs > 0 && ms >= o.timeoutMs) {
      for (const key of pending) {
        const [ns, name] = key.split('/');
        res.out += `evicting pod ${key}\n`;
        res.errors.push(
          `error when evicting pods/"${name}" -n "${ns}": global timeout reached: ${goDuration(o.timeoutMs)}`,
        );
      }
      break;
    }
    const r = evictRound(file, pending, ms / 1000, who);
    res.out += r.out;
    res.err += r.err;
    res.errors.push(...r.failures);
    pending = pending.filter((k) => !r.done.includes(k));
    if (pending.length > 0 && o.timeoutMs === 0)
      throw notImplemented(
        `a drain without --timeout that an eviction refusal blocks (kubectl would retry ${pending.join(', ')} every 5s forever)`,
      );
    if (pending.length > 0) sleepSync(readClusterState(file)?.evictionRetrySleepMs ?? 0);
  }
  return res;
}

export function drainCommand(file: string, p: Parsed, who: EventActor): KubectlResult {
  const o = options(p);
  const changed = setCordon(file, o.node, true, who);
  let stdout = `node/${o.node} ${changed ? '' : 'already '}cordoned\n`;
  let stderr = '';
  const record = (e: NewEvent) => updateClusterState(file, (s) => appendEvents(file, s, who, [e]));
  const sorted = sortPods(podsOn(readClusterState(file)!, o.node), o);
  if (sorted.errors.length > 0) {
    record({ kind: 'drain', node: o.node, outcome: 'failed', error: sorted.errors.join('; ') });
    return { code: 1, stdout, stderr: failed(o.node, sorted.errors) };
  }
  if (sorted.warning) stderr += `Warning: ${sorted.warning}\n`;
  const r = evictAll(file, sorted.evict.map(podKey), o, who);
  stdout += r.out;
  stderr += r.err;
  if (r.errors.length > 0) {
    const left = sortPods(podsOn(readClusterState(file)!, o.node), o).evict;
    if (left.length > 0)
      stderr += `There are pending pods in node "${o.node}" when an error occurred: ${aggregate(r.errors)}\n${left.map((x) => `pod/${x.name}\n`).join('')}`;
    record({ kind: 'drain', node: o.node, outcome: 'failed', error: r.errors.join('; ') });
    return { code: 1, stdout, stderr: stderr + failed(o.node, r.errors) };
  }
  record({ kind: 'drain', node: o.node, outcome: 'drained' });
  return { code: 0, stdout: `${stdout}node/${o.node} drained\n`, stderr };
}
