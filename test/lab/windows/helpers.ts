// Shared set-up of the simulated Windows node tests: a node in a temp dir on 127.0.0.1, a model on
// its own, the real transport (ConnectionPool + HostSession) to a node, and stand-in PowerShell
// functions with the contract's names (the node matches their text as sent, it never runs it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { psCall, psFunction, type PsCall, type PsFunction } from '../../../runner/core/ps-call.js';
import { Secret } from '../../../runner/core/secret.js';
import { EnvRef, type Host } from '../../../runner/inventory/model.js';
import { HostSession } from '../../../runner/run/host-session.js';
import { ConnectionPool, type PoolOptions } from '../../../runner/transport/pool.js';
import type { ArgsOf, PlayFunctionName } from '../../../tasks/windows/contract.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import {
  startSimulatedWindowsNode,
  type RunningSimulatedWindowsNode,
  type SimulatedWindowsNodeConfig,
} from '../../../lab/windows/start.js';
import type { NodeState } from '../../../lab/windows/state.js';

export const PASSWORD = 'Adm1n\'pa$$ `w0rd"';

export function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-winsim-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A model alone (no SSH), persisted in a temp dir. */
export function model(t: ExecutionContext, seed?: (s: NodeState) => void, dir = tempDir(t)): SimulatedWindowsNode {
  const node = SimulatedWindowsNode.open({
    name: 'node009',
    stateFile: join(dir, 'state.json'),
    rebootSeconds: 0.2,
    seed,
  });
  t.teardown(() => node.close());
  return node;
}

/** Calls the model as a program would, with the contract's types. */
export function call<F extends PlayFunctionName>(node: SimulatedWindowsNode, fn: F, args: ArgsOf<F>): unknown {
  return node.call(fn, args);
}

export async function startNode(
  t: ExecutionContext,
  config: Partial<SimulatedWindowsNodeConfig> = {},
  dir = tempDir(t),
): Promise<RunningSimulatedWindowsNode & { dir: string }> {
  const running = await startSimulatedWindowsNode({
    name: 'node009',
    stateFile: join(dir, 'state.json'),
    hostKeyFile: join(dir, 'ssh_host_ed25519_key'),
    listen: { host: '127.0.0.1', port: 0 },
    password: PASSWORD,
    rebootSeconds: 1,
    ...config,
  });
  t.teardown(() => running.close());
  return Object.assign(running, { dir });
}

export function windowsHost(port: number, more: Partial<Host['connection']> = {}): Host {
  return {
    name: 'node009',
    vars: {},
    groups: ['all', 'windows'],
    connection: {
      address: '127.0.0.1',
      port,
      user: 'Administrator',
      os: 'windows',
      password: new EnvRef('PLAY_LAB_WINDOWS_PASSWORD'),
      ...more,
    },
  };
}

/** A HostSession over the real transport, trusting the node's key on first contact. */
export function session(
  t: ExecutionContext,
  node: { port: number; dir: string },
  o: { password?: string; pool?: PoolOptions; host?: Partial<Host['connection']> } = {},
): { session: HostSession; pool: ConnectionPool } {
  const pool = new ConnectionPool({
    knownHostsFile: join(node.dir, 'known_hosts'),
    acceptNew: true,
    agentSocket: null,
    defaultKeyFiles: [],
    handshakes: { baseDelayMs: 20 },
    ...o.pool,
  });
  t.teardown(() => pool.closeAll());
  const password = new Secret(o.password ?? PASSWORD, 'env:PLAY_LAB_WINDOWS_PASSWORD');
  const host = windowsHost(node.port, o.host);
  return { session: new HostSession(host, (h) => pool.get(h, { password })), pool };
}

const STAND_IN_BODY = '  # a stand-in: the simulated node answers from its model and only checks this text was sent';
const functions = new Map<string, PsFunction>();

/** A stand-in PowerShell function with a contract name. */
export function fn(name: string): PsFunction {
  let f = functions.get(name);
  if (!f) functions.set(name, (f = psFunction(name, STAND_IN_BODY)));
  return f;
}

export function ps<F extends PlayFunctionName>(name: F, args: ArgsOf<F>): PsCall {
  return psCall(fn(name), args as Readonly<Record<string, unknown>>);
}

/** Calls until one succeeds (a node coming back from a reboot), up to `ms`. */
export async function untilUp<T>(attempt: () => Promise<T>, ms: number): Promise<{ value: T; failures: string[] }> {
  const failures: string[] = [];
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return { value: await attempt(), failures };
    } catch (e) {
      failures.push((e as Error).message);
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
