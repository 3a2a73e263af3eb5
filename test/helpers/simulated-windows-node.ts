// Simulated Windows nodes (lab/windows, a TEST DOUBLE) in-process on 127.0.0.1, and play's real
// runner against them: compileGraph + prebuildSteps + runGraph over a real ConnectionPool (SSH,
// password from the environment, host key recorded on first contact and verified afterwards).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { AnyStep } from '../../runner/core/step.js';
import { EnvRef, type Group, type Host, type Inventory } from '../../runner/inventory/model.js';
import { resolveSecrets } from '../../runner/inventory/secrets.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { definePlaybook, type Playbook, type TaskContext } from '../../runner/playbook/define.js';
import type { Mode, RunReport, StepReport } from '../../runner/report/model.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';
import { ConnectionPool } from '../../runner/transport/pool.js';
import {
  startSimulatedWindowsNode,
  type RunningSimulatedWindowsNode,
  type SimulatedWindowsNodeConfig,
} from '../../lab/windows/start.js';
import type { NodeState } from '../../lab/windows/node-state.js';

/** The environment variable the inventory's password refers to; set here, read by resolveSecrets. */
export const PASSWORD_ENV = 'PLAY_T_WIN_PW';
/** Hostile on purpose: quotes, `$`, a backtick, a semicolon. */
export const PASSWORD = 'Pa$$w0rd\'; `x` "y" $(z)';
process.env[PASSWORD_ENV] = PASSWORD;

export interface WindowsNode {
  readonly name: string;
  readonly sim: RunningSimulatedWindowsNode;
  readonly dir: string;
  readonly knownHosts: string;
  readonly host: Host;
  /** The model's state as JSON text, for before/after comparisons. */
  snapshot(): string;
  readonly state: NodeState;
}

export interface NodeOptions
  extends Partial<Pick<SimulatedWindowsNodeConfig, 'seed' | 'faults' | 'rebootSeconds' | 'password'>> {
  name?: string;
  /** The environment variable the inventory names (default PLAY_T_WIN_PW). */
  passwordEnv?: string;
}

/** Starts a simulated node on 127.0.0.1:0 (temp state file and host key), closed and removed at teardown. */
export async function startWindowsNode(t: ExecutionContext, o: NodeOptions = {}): Promise<WindowsNode> {
  const name = o.name ?? 'node009';
  const dir = mkdtempSync(join(tmpdir(), `play-e2e-win-${name}-`));
  const sim = await startSimulatedWindowsNode({
    name,
    stateFile: join(dir, 'state.json'),
    hostKeyFile: join(dir, 'ssh_host_ed25519_key'),
    listen: { host: '127.0.0.1', port: 0 },
    password: o.password ?? PASSWORD,
    rebootSeconds: o.rebootSeconds ?? 1,
    faults: o.faults,
    seed: o.seed,
  });
  t.teardown(async () => {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const knownHosts = join(dir, 'known_hosts');
  const host: Host = {
    name,
    vars: {},
    groups: ['all', 'windows'],
    connection: {
      address: '127.0.0.1',
      port: sim.port,
      user: 'Administrator',
      os: 'windows',
      password: new EnvRef(o.passwordEnv ?? PASSWORD_ENV),
      knownHostsFile: knownHosts,
    },
  };
  return {
    name,
    sim,
    dir,
    knownHosts,
    host,
    snapshot: () => JSON.stringify(sim.node.state),
    get state() {
      return sim.node.state;
    },
  };
}

export function inventoryOf(nodes: readonly WindowsNode[]): Inventory {
  const hosts = nodes.map((n) => n.host);
  const names = hosts.map((h) => h.name);
  const groups = new Map<string, Group>([
    ['all', { name: 'all', hosts: names, children: ['windows'], vars: {} }],
    ['windows', { name: 'windows', hosts: names, children: [], vars: {} }],
  ]);
  return { file: 'windows-e2e.yaml', hosts, groups, host: (n) => hosts.find((h) => h.name === n) };
}

export interface RunOpts {
  mode?: Mode;
  /** The run's default per-step limit (default 60 s). */
  timeoutMs?: number;
  forks?: number;
}

/** Runs a playbook through the real runner over SSH; a fresh pool per run (known_hosts persists). */
export async function runPlaybook(nodes: readonly WindowsNode[], pb: Playbook, o: RunOpts = {}): Promise<RunReport> {
  const inventory = inventoryOf(nodes);
  const graph = compileGraph(pb, inventory);
  const pool = new ConnectionPool({
    acceptNew: true,
    agentSocket: null,
    defaultKeyFiles: [],
    handshakes: { baseDelayMs: 20 },
  });
  try {
    return await runGraph(graph, inventory, prebuildSteps(graph, inventory), {
      mode: o.mode ?? 'apply',
      forks: o.forks ?? 5,
      timeoutMs: o.timeoutMs ?? 60_000,
      connect: (h) => pool.get(h, resolveSecrets(h)),
    });
  } finally {
    await pool.closeAll();
  }
}

/** One step on one node through the real runner. */
export async function runOne(
  node: WindowsNode,
  make: AnyStep | ((ctx: TaskContext) => AnyStep),
  mode: Mode = 'apply',
): Promise<StepReport> {
  const pb = definePlaybook({ name: 'step', description: '', tasks: { step: { on: node.name, step: make } } });
  const report = await runPlaybook([node], pb, { mode });
  return report.hosts[node.name]!.steps[0]!;
}

export interface ThreeRuns {
  check: StepReport;
  apply: StepReport;
  again: StepReport;
}

/**
 * check (must report the change and leave the model untouched), apply (must change), again (must
 * be a noop). Asserts those three verdicts; the caller checks the model after apply.
 */
export async function threeRuns(
  t: ExecutionContext,
  node: WindowsNode,
  make: () => AnyStep,
  after?: (apply: StepReport) => void,
): Promise<ThreeRuns> {
  const before = node.snapshot();
  const check = await runOne(node, make(), 'check');
  t.is(check.status, 'changed', `check: ${check.error ?? ''}`);
  t.not(check.action, 'noop');
  t.is(node.snapshot(), before, 'check mode changed nothing in the model');
  const apply = await runOne(node, make(), 'apply');
  t.is(apply.status, 'changed', `apply: ${apply.error ?? ''}`);
  t.is(apply.action, check.action, 'apply did what check said');
  t.not(node.snapshot(), before, 'apply changed the model');
  after?.(apply);
  const again = await runOne(node, make(), 'apply');
  t.is(again.status, 'ok', `second run: ${again.error ?? ''}`);
  t.is(again.action, 'noop');
  return { check, apply, again };
}
