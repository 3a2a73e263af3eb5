// Shared set-up of the simulated Windows node tests: a node in a temp dir on 127.0.0.1, a model on
// its own, the real transport (ConnectionPool + HostSession) to a node, and play's remote functions
// run on a node under real PowerShell, in process (run) or over SSH (ps).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { psCall, type PsCall } from '../../../runner/core/ps-call.js';
import { Secret } from '../../../runner/core/secret.js';
import { EnvRef, type Host } from '../../../runner/inventory/model.js';
import { HostSession } from '../../../runner/run/host-session.js';
import { ConnectionPool, type PoolOptions } from '../../../runner/transport/pool.js';
import type { ArgsOf, PlayFunctionName } from '../../../tasks/windows/remote/contract.js';
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { WindowsError } from '../../../lab/windows/errors.js';
import { callNode } from '../../../lab/windows/powershell/call.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import {
  startSimulatedWindowsNode,
  type RunningSimulatedWindowsNode,
  type SimulatedWindowsNodeConfig,
} from '../../../lab/windows/start.js';
import type { NodeState } from '../../../lab/windows/node-state.js';

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

/**
 * Runs one of play's remote functions on the node under real PowerShell (lab/windows/powershell/call.ts):
 * its result, or a WindowsError with the message the function threw.
 */
export async function run<F extends PlayFunctionName>(
  node: SimulatedWindowsNode,
  fn: F,
  args: ArgsOf<F>,
): Promise<any> {
  const [result] = await callNode(node, [psCall(PLAY_FUNCTIONS[fn], args as Record<string, unknown>)]);
  if (!result!.ok) throw new WindowsError(result!.error);
  return result!.value;
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

/** A call of one of play's remote functions, with its real PowerShell (the node runs it). */
export function ps<F extends PlayFunctionName>(name: F, args: ArgsOf<F>): PsCall {
  return psCall(PLAY_FUNCTIONS[name], args as Readonly<Record<string, unknown>>);
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
