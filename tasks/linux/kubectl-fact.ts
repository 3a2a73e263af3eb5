// Read-only "fact" steps for a Kubernetes master (the control host): kubectl's answers as task outputs.
//  - kubectlNodeRegistered({ kubectl, node, timeoutSec? }): the node is registered and has a pod CIDR.
//    Probe: `<kubectl> get node <node> -o jsonpath={.spec.podCIDR}`. Absent (NotFound, or registered
//    without a pod CIDR yet) plans `run`, whose apply waits for the node, polling the same command
//    with backoff, at most timeoutSec (kubelet registers the node; this step changes nothing in the
//    cluster). Output { podCidr }.
//  - kubectlValue({ kubectl, args }): probe-only, always noop; output { value }, kubectl's stdout
//    trimmed (e.g. `get svc -n kube-system kube-dns -o jsonpath={.spec.clusterIP}`). A failing
//    kubectl fails the probe with its message.
import { NOOP, type Change } from '../../runner/core/change.js';
import { RemoteError } from '../../runner/core/errors.js';
import { sh, type Script } from '../../runner/core/quote.js';
import { redact } from '../../runner/core/secret.js';
import type { ExecResult, Remote, Step } from '../../runner/core/step.js';
import { parseCidr } from '../common/ipv4.js';
import { z } from 'zod';
import { integer, nonEmpty, readOptions } from '../../runner/core/step-options.js';
import { ProbeLines } from './probe-lines.js';

export interface KubectlNodeActual {
  /** null: not registered (NotFound); '' registered without a pod CIDR yet. */
  readonly podCidr: string | null;
}

export interface KubectlNodeRegisteredOutputs {
  podCidr: string;
}

export interface KubectlValueActual {
  readonly value: string;
}

export interface KubectlValueOutputs {
  value: string;
}

const NODE_KIND = 'linux.kubectlNodeRegistered';
const VALUE_KIND = 'linux.kubectlValue';
/** A Kubernetes node name: a DNS subdomain (lower case). */
const NODE_NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

/** Absolute path of kubectl on the host (or a program name found in PATH). */
const kubectlProgram = () =>
  nonEmpty().refine((k) => !k.startsWith('-') && !/\s|\0/.test(k), {
    error: (iss) => `must be a path or program name (no spaces, not starting with -), got ${JSON.stringify(iss.input)}`,
  });

const NodeRegisteredOptions = z.strictObject({
  kubectl: kubectlProgram(),
  node: nonEmpty().refine((n) => NODE_NAME.test(n), {
    error: (iss) =>
      `must be a Kubernetes node name (lower case letters, digits, '-', '.'), got ${JSON.stringify(iss.input)}`,
  }),
  /** How long apply waits for the node to register (default 300). */
  timeoutSec: integer({ min: 1, max: 3600 }).default(300),
});

export type KubectlNodeRegisteredOptions = z.input<typeof NodeRegisteredOptions>;
export type KubectlNodeRegisteredDesired = Readonly<z.output<typeof NodeRegisteredOptions>>;

const ValueOptions = z.strictObject({
  kubectl: kubectlProgram(),
  args: z
    .array(
      z.string().refine((a) => !a.includes('\0'), { error: 'must be a string without NUL' }),
      {
        error: 'must be a non-empty array of strings',
      },
    )
    .min(1, { error: 'must be a non-empty array of strings' })
    .readonly(),
});

export type KubectlValueOptions = z.input<typeof ValueOptions>;
export type KubectlValueDesired = Readonly<z.output<typeof ValueOptions>>;

/**
 * Runs kubectl with its stdout and stderr merged and prints `rc N` then each output line as `out LINE`,
 * so the parser sees the exit code inside a batched probe.
 */
export function kubectlScript(kubectl: string, args: readonly string[]): Script {
  return sh`out=$(${[kubectl, ...args]} 2>&1 < /dev/null); rc=$?
printf 'rc %s\n' "$rc"
printf '%s\n' "$out" | sed 's/^/out /'`;
}

export interface KubectlRun {
  readonly code: number;
  readonly output: string;
}

/** Parses kubectlScript's output. Pure. */
export function parseKubectlRun(what: string, result: ExecResult): KubectlRun {
  const lines = new ProbeLines(what, result);
  const rc = lines.match('rc', /^(\d+)$/);
  const out: string[] = [];
  while (!lines.done) out.push(lines.record('out'));
  return { code: Number(rc[1]), output: out.join('\n').trim() };
}

function kubectlFailure(what: string, run: KubectlRun): Error {
  const text = redact(run.output);
  return new RemoteError(`${what}: kubectl exited ${run.code}${text ? `: ${text.slice(-500)}` : ''}`, run.code, text);
}

/** The node's pod CIDR from `get node NAME -o jsonpath={.spec.podCIDR}`: null when NotFound. Pure. */
export function nodePodCidr(what: string, run: KubectlRun): KubectlNodeActual {
  if (run.code !== 0) {
    if (/\(NotFound\)/.test(run.output)) return { podCidr: null };
    throw kubectlFailure(what, run);
  }
  const v = run.output;
  if (v !== '' && parseCidr(v) === null)
    throw new Error(`${what}: kubectl printed ${JSON.stringify(v.slice(0, 80))}, not a pod CIDR`);
  return { podCidr: v };
}

export function diffNodeRegistered(d: Readonly<KubectlNodeRegisteredDesired>, a: KubectlNodeActual | null): Change {
  if (a !== null && a.podCidr) return NOOP;
  const before = a === null || a.podCidr === null ? 'not registered' : 'registered without a pod CIDR';
  return {
    action: 'run',
    fields: ['registered'],
    before: { registered: before },
    after: { registered: `${d.node} with a pod CIDR` },
  };
}

/** Delays between polls: 0.5 s doubling to 5 s. */
export function backoffMs(attempt: number): number {
  return Math.min(5000, 500 * 2 ** attempt);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function kubectlNodeRegistered(
  options: KubectlNodeRegisteredOptions,
): Step<KubectlNodeRegisteredDesired, KubectlNodeActual, KubectlNodeRegisteredOutputs> {
  const desired: KubectlNodeRegisteredDesired = Object.freeze(readOptions(NODE_KIND, NodeRegisteredOptions, options));
  const { node } = desired;
  const title = `node ${node} registered`;
  const scriptFor = (d: Readonly<KubectlNodeRegisteredDesired>) =>
    kubectlScript(d.kubectl, ['get', 'node', d.node, '-o', 'jsonpath={.spec.podCIDR}']);
  const script = scriptFor(desired);
  const read = (result: ExecResult) => nodePodCidr(title, parseKubectlRun(title, result));

  return Object.freeze({
    kind: NODE_KIND,
    title,
    desired,
    probe: () => ({ script, parse: read }),
    diff: diffNodeRegistered,
    async apply(
      remote: Remote,
      _change: Change,
      _actual: KubectlNodeActual | null,
      d: KubectlNodeRegisteredDesired,
    ): Promise<void> {
      const { timeoutSec } = d;
      const deadline = Date.now() + timeoutSec * 1000;
      let last = 'not registered';
      for (let attempt = 0; ; attempt++) {
        const actual = read(await remote.run(scriptFor(d)));
        if (actual.podCidr) return;
        last = actual.podCidr === null ? 'not registered' : 'registered without a pod CIDR';
        const left = deadline - Date.now();
        if (left <= 0) break;
        await sleep(Math.min(backoffMs(attempt), left));
      }
      throw new Error(
        `${title}: still ${last} after ${timeoutSec} s (is kubelet running on the node with a valid --kubeconfig?)`,
      );
    },
    outputs: (
      _d: Readonly<KubectlNodeRegisteredDesired>,
      a: KubectlNodeActual | null,
    ): KubectlNodeRegisteredOutputs => ({ podCidr: a?.podCidr ?? '' }),
  });
}

export function kubectlValue(
  options: KubectlValueOptions,
): Step<KubectlValueDesired, KubectlValueActual, KubectlValueOutputs> {
  const desired: KubectlValueDesired = Object.freeze(readOptions(VALUE_KIND, ValueOptions, options));
  const { kubectl } = desired;
  const title = `kubectl ${desired.args.join(' ')}`;
  const script = kubectlScript(kubectl, desired.args);

  return Object.freeze({
    kind: VALUE_KIND,
    title: title.length > 80 ? `${title.slice(0, 80)}…` : title,
    desired,
    probe: () => ({
      script,
      parse: (result: ExecResult): KubectlValueActual => {
        const run = parseKubectlRun(title, result);
        if (run.code !== 0) throw kubectlFailure(title, run);
        return { value: run.output };
      },
    }),
    diff: (): Change => NOOP,
    async apply(): Promise<never> {
      throw new Error(`${title}: a read-only fact has nothing to apply`);
    },
    outputs: (_d: Readonly<KubectlValueDesired>, a: KubectlValueActual | null): KubectlValueOutputs => ({
      value: a?.value ?? '',
    }),
  });
}
