// The typed probe channel of a Windows host and the re-probe an apply carries (Step.applyThenProbe):
// the runner over a Windows host whose connection answers play's PowerShell programs from a map of
// values (the calls read back out of the program's JSON literal, as PowerShell reads it), with a step
// of one's own built on the open API (defineFunction, probeFunction, invokeFunction). A first apply
// costs one round trip per changed step when the step opts in, two when it does not; the apply's call
// comes first in its program and the probes after it; convergence is still judged by the real probe.
import test from 'ava';
import { oneHostInventory } from '../helpers/one-host.js';
import { z } from 'zod';
import { diffFields } from '../../runner/core/change.js';
import type { AnyStep, Step } from '../../runner/core/step.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { definePlaybook } from '../../runner/playbook/define.js';
import type { RunReport } from '../../runner/report/model.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';
import { defineFunction, invokeFunction, probeFunction } from '../../tasks/windows/remote/open-function.js';
import { callsOf } from '../tasks/windows/calls-literal.js';

const GET = defineFunction({
  name: 'Get-PlayCarriedValue',
  args: z.strictObject({ name: z.string() }),
  result: z.object({ value: z.string().nullable() }),
  body: '[ordered]@{ value = $null }',
});
const SET = defineFunction({
  name: 'Set-PlayCarriedValue',
  args: z.strictObject({ name: z.string(), value: z.string() }),
  result: z.null(),
  body: '$null',
});

/** A Windows node as its programs see it: `refuse` fails a write, a name starting with `stuck` ignores one. */
class ValueNode {
  readonly values = new Map<string, string>();
  /** The functions each round trip called, in order. */
  readonly trips: string[][] = [];

  answer(program: string): string {
    const calls = callsOf(program);
    this.trips.push(calls.map((c) => `${c.fn === GET.name ? 'get' : 'set'} ${c.args.name}`));
    return JSON.stringify(calls.map((c) => this.#one(c.fn, c.args)));
  }

  #one(fn: string, args: { name: string; value?: string }): unknown {
    if (fn === GET.name) return { ok: true, value: { value: this.values.get(args.name) ?? null } };
    if (args.value === 'refuse') return { ok: false, error: `access to ${args.name} is denied` };
    if (!args.name.startsWith('stuck')) this.values.set(args.name, args.value!);
    return { ok: true, value: null };
  }
}

interface ValueDesired {
  name: string;
  value: string;
}

/** A value step of one's own; `built` counts its probe() calls. */
function valueStep(
  name: string,
  value: string,
  carry: boolean,
  built: Map<string, number>,
): Step<ValueDesired, ValueDesired> {
  return {
    kind: 'test.value',
    title: `value ${name}`,
    desired: Object.freeze({ name, value }),
    probe: () => {
      built.set(name, (built.get(name) ?? 0) + 1);
      return probeFunction(GET, { name }, (r) => (r.value === null ? null : { name, value: r.value }));
    },
    diff: (d, a) => diffFields(d, a, ['value']),
    async apply(remote, _change, _actual, d) {
      await invokeFunction(remote, SET, { name: d.name, value: d.value }, `value ${d.name}`);
    },
    applyThenProbe: carry,
  };
}

/** `timeoutSec`: each task's own time limit, which keeps its apply out of a shared round trip. */
async function run(steps: Record<string, AnyStep>, node: ValueNode, timeoutSec?: number): Promise<RunReport> {
  const { inv } = oneHostInventory('node009', 'windows', { user: 'Administrator', os: 'windows' });
  const tasks = Object.fromEntries(
    Object.entries(steps).map(([id, step]) => [id, { on: 'windows', step, ...(timeoutSec ? { timeoutSec } : {}) }]),
  );
  const graph = compileGraph(definePlaybook({ name: 'carried', description: 'values', tasks }), inv);
  return runGraph(graph, inv, prebuildSteps(graph, inv), {
    mode: 'apply',
    forks: 1,
    timeoutMs: 10_000,
    connect: async () => ({
      exec: async (_command: string, options?: { stdin?: unknown }) => ({
        stdout: node.answer(String(options?.stdin)),
        stderr: '',
        code: 0,
      }),
    }),
  });
}

const statuses = (r: RunReport) =>
  r.hosts.node009!.steps.map((s) => `${s.task}: ${s.status}${s.error ? ` ${s.error}` : ''}`);

test('round trips of a first apply and a re-run, with and without the carried re-probe; each probe built once', async (t) => {
  const rows = [];
  for (const carry of [true, false]) {
    const node = new ValueNode();
    const built = new Map<string, number>();
    const steps = {
      zone: valueStep('zone', 'UTC', carry, built),
      dns: valueStep('dns', '198.18.0.53', carry, built),
      ntp: valueStep('ntp', 'time.lab', carry, built),
    };
    const first = statuses(await run(steps, node));
    const firstTrips = [...node.trips];
    const again = statuses(await run(steps, node));
    rows.push([carry, first, firstTrips, again, node.trips.length - firstTrips.length, Object.fromEntries(built)]);
  }
  const gets = ['get zone', 'get dns', 'get ntp'];
  t.deepEqual(rows, [
    [
      true,
      ['zone: changed', 'dns: changed', 'ntp: changed'],
      // one program of probes, then one with the three (independent) applies and every re-probe
      [gets, ['set zone', 'set dns', 'set ntp', ...gets]],
      ['zone: ok', 'dns: ok', 'ntp: ok'],
      1,
      { zone: 1, dns: 1, ntp: 1 },
    ],
    [
      false,
      ['zone: changed', 'dns: changed', 'ntp: changed'],
      [gets, ['set zone'], gets, ['set dns'], ['get dns', 'get ntp'], ['set ntp'], ['get ntp']],
      ['zone: ok', 'dns: ok', 'ntp: ok'],
      1,
      { zone: 1, dns: 1, ntp: 1 },
    ],
  ]);
});

test('a carried apply that fails fails with its own message; one that does not take effect is not converged', async (t) => {
  const node = new ValueNode();
  const built = new Map<string, number>();
  const report = await run(
    {
      refused: valueStep('acl', 'refuse', true, built),
      stuck: valueStep('stuck-zone', 'UTC', true, built),
      fine: valueStep('zone', 'UTC', true, built),
    },
    node,
  );
  t.deepEqual(statuses(report), [
    'refused: failed value acl failed (exit 1): access to acl is denied',
    'stuck: failed not converged: value',
    'fine: changed',
  ]);
  t.deepEqual(node.trips, [
    ['get acl', 'get stuck-zone', 'get zone'],
    // the three applies in one program, each call in its own try: the refused one stops no other
    ['set acl', 'set stuck-zone', 'set zone', 'get acl', 'get stuck-zone', 'get zone'],
  ]);
});

test('applied one at a time (each with a time limit of its own), a failed step keeps no probe of the others', async (t) => {
  const node = new ValueNode();
  const built = new Map<string, number>();
  const steps = {
    refused: valueStep('acl', 'refuse', true, built),
    stuck: valueStep('stuck-zone', 'UTC', true, built),
    fine: valueStep('zone', 'UTC', true, built),
  };
  const report = await run(steps, node, 30);
  t.deepEqual(statuses(report), [
    'refused: failed value acl failed (exit 1): access to acl is denied',
    'stuck: failed not converged: value',
    'fine: changed',
  ]);
  t.deepEqual(node.trips, [
    ['get acl', 'get stuck-zone', 'get zone'],
    ['set acl', 'get acl', 'get stuck-zone', 'get zone'],
    // the failed step's round trip carried the others' probes, but they are not kept: probed again
    ['get stuck-zone', 'get zone'],
    ['set stuck-zone', 'get stuck-zone', 'get zone'],
    ['set zone', 'get zone'],
  ]);
});
