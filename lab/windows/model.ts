// SimulatedWindowsNode: a TEST DOUBLE of a Windows Server 2019 node: the model (node-state.ts) beneath
// the real PowerShell our programs run under (powershell/, surface/), saved to its state file after
// every change, so it survives a restart of the simulator. It owns the reboot state machine
// (scheduled -> down -> up) and tells its SSH server (server.ts) when to drop or refuse connections.
import { EventEmitter } from 'node:events';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { applyPendingChanges, completeBoot } from './boot.js';
import { defaultNodeState, upgradeNodeState } from './defaults.js';
import { WindowsError } from './errors.js';
import type { NodeState } from './node-state.js';

export interface SimulatedWindowsNodeOptions {
  /** The hostname, for a new state. */
  name: string;
  /** Where the state lives; none: in memory only. */
  stateFile?: string;
  /** How long a reboot keeps the node away (default 3 s, as tests want; a real node takes minutes). */
  rebootSeconds?: number;
  /** Changes a new state before its first save (tests seed services, files, ...). */
  seed?: (state: NodeState) => void;
}

export interface SimulatedWindowsNodeEvents {
  /** Drop every open SSH connection now (HNS network created, or going down for a reboot). */
  'drop-connections': [];
  /** Going down for a reboot: refuse new connections. */
  down: [];
  /** Back from a reboot: accept connections again. */
  up: [];
  /** After every call and every reboot phase (the state may have changed): cluster-registration.ts listens. */
  'state-changed': [];
}

export class SimulatedWindowsNode extends EventEmitter<SimulatedWindowsNodeEvents> {
  rebootSeconds: number;
  /** Reboots completed since this object was made, for tests. */
  reboots = 0;
  /** The badKb fault (faults.ts), set by start.ts: read by cluster-registration.ts. */
  badKb: string | null = null;
  #saved = '';
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  private constructor(
    public state: NodeState,
    readonly stateFile: string | undefined,
    rebootSeconds: number,
  ) {
    super();
    this.rebootSeconds = rebootSeconds;
  }

  /** Loads the state file if there is one (resuming a reboot in progress), or makes a new node. */
  static open(o: SimulatedWindowsNodeOptions): SimulatedWindowsNode {
    let state: NodeState;
    if (o.stateFile && existsSync(o.stateFile)) {
      state = JSON.parse(readFileSync(o.stateFile, 'utf8')) as NodeState;
      if (state.version !== 1)
        throw new Error(`${o.stateFile}: not a simulated Windows node state (version ${String(state.version)})`);
      state = upgradeNodeState(state);
    } else {
      state = defaultNodeState(o.name);
      o.seed?.(state);
    }
    const node = new SimulatedWindowsNode(state, o.stateFile, o.rebootSeconds ?? 3);
    node.save();
    node.#resume();
    return node;
  }

  get isUp(): boolean {
    return this.state.boot.phase !== 'down';
  }
  get pendingReboot(): boolean {
    return this.state.pending.length > 0;
  }

  /** Writes the state file (atomically: temp file, then rename) when the state changed. */
  save(): void {
    if (!this.stateFile) return;
    const text = `${JSON.stringify(this.state, null, 1)}\n`;
    if (text === this.#saved) return;
    mkdirSync(dirname(this.stateFile), { recursive: true });
    const tmp = `${this.stateFile}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, this.stateFile);
    this.#saved = text;
  }

  /** After a change through the Windows surface: saved, and listeners (cluster registration) told. */
  changed(): void {
    this.save();
    this.emit('state-changed');
  }

  /** The NIC blinks (docs/field-notes.md#a-hns-network-and-endpoint): every open connection drops, once. */
  dropConnections(): void {
    this.emit('drop-connections');
  }

  /** shutdown.exe /r /t N: the node goes down after N seconds. */
  scheduleReboot(delaySeconds: number): void {
    if (this.state.boot.phase !== 'up') throw new WindowsError('A system shutdown has already been scheduled.(1190)');
    // At least a moment, so the call that asked for it can still answer (shutdown.exe returns at once).
    this.state.boot = { phase: 'scheduled', until: Date.now() + Math.max(delaySeconds * 1000, 200) };
    this.save();
    this.#resume();
  }

  /** Stops the timers (the state file keeps where the reboot was). */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #resume(): void {
    if (this.#closed) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const { phase, until } = this.state.boot;
    if (phase === 'up') return;
    const wait = Math.max(0, (until ?? 0) - Date.now());
    this.#timer = setTimeout(() => (phase === 'scheduled' ? this.#goDown() : this.#comeUp()), wait);
  }

  #goDown(): void {
    this.state.boot = { phase: 'down', until: Date.now() + this.rebootSeconds * 1000 };
    applyPendingChanges(this.state);
    this.save();
    this.emit('state-changed');
    this.emit('down');
    this.emit('drop-connections');
    this.#resume();
  }

  #comeUp(): void {
    completeBoot(this.state, new Date());
    this.reboots++;
    this.save();
    this.emit('state-changed');
    this.emit('up');
  }
}
