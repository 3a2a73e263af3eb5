// The SSH side of a simulated Windows node (a test double): ssh2's Server speaking as Windows'
// OpenSSH does to play's transport. It takes password and public key logins for one user, accepts
// only the PowerShell bootstrap command (anything else gets cmd.exe's answer), reads the program on
// stdin to EOF and runs the command under real PowerShell over the node's simulated Windows surface
// (powershell/run-program.ts). Up to 10 sessions per connection
// (sshd's MaxSessions). Faults (faults.ts) act here; the node's events drop and refuse connections.
import { createServer, type Server as NetServer, type Socket } from 'node:net';
import ssh2 from 'ssh2';
import type { AuthContext, Connection, ParsedKey, ServerChannel } from 'ssh2';
import { mergeFaults, NO_FAULTS, type WindowsNodeFaults } from './faults.js';
import { handOverBootFaults } from './boot-faults.js';
import type { SimulatedWindowsNode } from './model.js';
import { calledFunctions } from './powershell/called-functions.js';
import type { PowerShellHost } from './powershell/host.js';
import { encodedCommandOf, runPowerShell } from './powershell/run-program.js';

const { Server, utils } = ssh2;

export interface SimulatedWindowsServerOptions {
  node: SimulatedWindowsNode;
  /** The PowerShell engine that runs the programs (one per process is enough: programs run one at a time). */
  powershell: PowerShellHost;
  /** The host key (OpenSSH private key text). */
  hostKey: string;
  /** The one user who may log in (case-insensitive, as on Windows); default Administrator. */
  user?: string;
  password?: string;
  /** Public key lines (`ssh-ed25519 AAAA...`) allowed to log in. */
  authorizedKeys?: readonly string[];
  faults?: Partial<WindowsNodeFaults>;
  /** Session channels at once per connection (default 10, sshd's MaxSessions). */
  maxSessions?: number;
  log?: (line: string) => void;
}

export interface ServerStats {
  connections: number;
  logins: number;
  authFailures: number;
  commands: number;
  /** Connections dropped by the node (HNS, reboot) or by the dropConnectionOnCommand fault. */
  dropped: number;
  refusedSessions: number;
  peakSessions: number;
  /** Commands left hanging by the hangFunction fault. */
  hung: number;
  /** What the latencyMs fault held programs back: how many, and for how long in all (ms). */
  delayed: number;
  delayedMs: number;
}

interface Live {
  socket: Socket;
  gone: boolean;
  sessions: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class SimulatedWindowsSshServer {
  faults: WindowsNodeFaults;
  readonly stats: ServerStats = {
    connections: 0,
    logins: 0,
    authFailures: 0,
    commands: 0,
    dropped: 0,
    refusedSessions: 0,
    peakSessions: 0,
    hung: 0,
    delayed: 0,
    delayedMs: 0,
  };
  readonly #net: NetServer;
  readonly #live = new Set<Live>();
  readonly #authorized: ParsedKey[];
  readonly #unsubscribe: () => void;
  #commandsSinceDropSet = 0;
  #address: { host: string; port: number };
  #listening = false;
  #closed = false;

  private constructor(
    readonly options: SimulatedWindowsServerOptions,
    listen: { host: string; port: number },
  ) {
    this.faults = this.#bootFaultsToModel(mergeFaults({ ...NO_FAULTS }, options.faults ?? {}));
    this.#address = { ...listen };
    this.#authorized = (options.authorizedKeys ?? []).map((line) => {
      const k = utils.parseKey(line);
      if (k instanceof Error) throw new Error(`authorized key ${line.slice(0, 30)}...: ${k.message}`);
      return Array.isArray(k) ? k[0]! : k;
    });
    const ssh = new Server({ hostKeys: [options.hostKey], ident: 'OpenSSH_for_Windows_7.7' }, (client) =>
      this.#onClient(client),
    );
    this.#net = createServer((socket) => {
      const live: Live = { socket, gone: false, sessions: 0 };
      this.#live.add(live);
      this.stats.connections++;
      socket.setNoDelay(true);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        live.gone = true;
        this.#live.delete(live);
      });
      ssh.injectSocket(socket);
    });
    const node = options.node;
    const drop = () => this.dropConnections();
    const down = () => this.#stopListening();
    const up = () => {
      void this.#startListening().catch((e: Error) => this.#log(`cannot listen again: ${e.message}`));
    };
    node.on('drop-connections', drop).on('down', down).on('up', up);
    this.#unsubscribe = () => {
      node.off('drop-connections', drop).off('down', down).off('up', up);
    };
  }

  /** Starts listening (unless the node is down for a reboot: then it listens once it is back). */
  static async start(
    options: SimulatedWindowsServerOptions,
    listen: { host: string; port: number },
  ): Promise<SimulatedWindowsSshServer> {
    const server = new SimulatedWindowsSshServer(options, listen);
    if (options.node.isUp) await server.#startListening();
    else if (listen.port === 0) throw new Error('a node that is down for a reboot needs a fixed port to come back on');
    return server;
  }

  get port(): number {
    return this.#address.port;
  }
  get host(): string {
    return this.#address.host;
  }
  get listening(): boolean {
    return this.#listening;
  }
  get openConnections(): number {
    return this.#live.size;
  }

  setFault(patch: Partial<WindowsNodeFaults>): void {
    this.faults = this.#bootFaultsToModel(mergeFaults(this.faults, patch));
    if ('dropConnectionOnCommand' in patch) this.#commandsSinceDropSet = 0;
  }

  /** Faults that act at the next boot are the model's (boot-faults.ts): armed there, saved. */
  #bootFaultsToModel(faults: WindowsNodeFaults): WindowsNodeFaults {
    const { faults: rest, armed } = handOverBootFaults(this.options.node.state, faults);
    if (armed) this.options.node.save();
    return rest;
  }

  /** Destroys every TCP connection at once, as a NIC that blinks or a host that goes down. */
  dropConnections(): void {
    for (const live of [...this.#live]) this.#drop(live);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    this.dropConnections();
    if (this.#listening) await new Promise<void>((resolve) => this.#net.close(() => resolve()));
    this.#listening = false;
  }

  #drop(live: Live): void {
    if (live.gone) return;
    live.gone = true;
    this.stats.dropped++;
    live.socket.destroy();
  }

  #log(line: string): void {
    this.options.log?.(`${this.options.node.state.hostname}: ${line}`);
  }

  async #startListening(): Promise<void> {
    if (this.#listening || this.#closed) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await new Promise<void>((resolve, reject) => {
          this.#net.once('error', reject);
          this.#net.listen(this.#address.port, this.#address.host, () => {
            this.#net.off('error', reject);
            resolve();
          });
        });
        break;
      } catch (e) {
        // The port of a node coming back from a reboot may linger for a moment.
        if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw e;
        await sleep(100);
      }
    }
    this.#address.port = (this.#net.address() as { port: number }).port;
    this.#listening = true;
    this.#log(`listening on ${this.#address.host}:${this.#address.port}`);
  }

  #stopListening(): void {
    if (!this.#listening) return;
    this.#listening = false;
    this.#net.close();
    this.#log('down for a reboot: refusing connections');
  }

  #liveOf(client: Connection): Live | undefined {
    const socket = (client as unknown as { _sock?: Socket })._sock;
    return [...this.#live].find((l) => l.socket === socket);
  }

  #onClient(client: Connection): void {
    const live = this.#liveOf(client);
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => this.#authenticate(ctx));
    client.on('session', (accept, reject) => {
      if (!live || live.sessions >= (this.options.maxSessions ?? 10)) {
        this.stats.refusedSessions++;
        return reject();
      }
      const session = accept();
      live.sessions++;
      this.stats.peakSessions = Math.max(this.stats.peakSessions, live.sessions);
      let open = true;
      session.on('close', () => {
        if (open) {
          open = false;
          live.sessions--;
        }
      });
      session.on('exec', (acceptExec, _reject, info) => {
        this.stats.commands++;
        const n = this.faults.dropConnectionOnCommand;
        if (n !== null && ++this.#commandsSinceDropSet >= n) {
          // The exec request is never answered: the command does not start.
          this.faults = { ...this.faults, dropConnectionOnCommand: null };
          this.#log(`fault: dropping the connection on command ${n}`);
          return this.#drop(live);
        }
        const stream = acceptExec();
        const encoded = encodedCommandOf(info.command);
        if (encoded === null) return this.#notACommand(stream, info.command);
        const chunks: Buffer[] = [];
        stream.on('data', (d: Buffer) => chunks.push(d));
        stream.once('end', () => {
          void this.#runProgram(live, stream, encoded, Buffer.concat(chunks).toString('utf8'));
        });
      });
    });
  }

  #notACommand(stream: ServerChannel, command: string): void {
    const first = command.trim().split(/\s+/)[0] ?? '';
    const message = /^powershell(\.exe)?$/i.test(first)
      ? 'SimulatedWindowsNode: only `powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand ...` command lines are simulated\r\n'
      : `'${first}' is not recognized as an internal or external command,\r\noperable program or batch file.\r\n`;
    stream.stderr.write(message);
    stream.exit(1);
    stream.end();
  }

  async #runProgram(live: Live, stream: ServerChannel, encoded: string, text: string): Promise<void> {
    if (this.faults.latencyMs > 0) {
      this.stats.delayed++;
      this.stats.delayedMs += this.faults.latencyMs;
      await sleep(this.faults.latencyMs);
    }
    if (live.gone) return;
    const hang = this.faults.hangFunction?.toLowerCase();
    if (hang && calledFunctions(text).includes(hang)) {
      // Windows' sshd ignores `signal`: the command hangs until the client closes its channel.
      this.stats.hung++;
      return;
    }
    let output: { stdout: string; stderr: string; code: number };
    try {
      output = await runPowerShell(this.options.powershell, this.options.node, encoded, text);
    } catch (e) {
      // The engine failed (a simulator bug, or the host died): said on the node's log and to the client.
      this.#log(`PowerShell host: ${(e as Error).message}`);
      output = { stdout: '', stderr: `SimulatedWindowsNode: ${(e as Error).message}\r\n`, code: 255 };
    }
    // The connection dropped while the program ran (HNS made the NIC blink, a reboot): nobody hears the end.
    if (live.gone) return;
    if (output.stdout) stream.write(Buffer.from(output.stdout, 'utf8'));
    if (output.stderr) stream.stderr.write(Buffer.from(output.stderr, 'utf8'));
    stream.exit(output.code);
    stream.end();
  }

  #authenticate(ctx: AuthContext): void {
    const o = this.options;
    const methods: ('publickey' | 'password')[] = [];
    if (this.#authorized.length > 0) methods.push('publickey');
    if (o.password !== undefined) methods.push('password');
    const userOk = ctx.username.toLowerCase() === (o.user ?? 'Administrator').toLowerCase();
    if (ctx.method === 'none') {
      ctx.reject(methods);
      return;
    }
    let ok = false;
    if (!this.faults.authFailure && userOk) {
      if (ctx.method === 'password') {
        ok = o.password !== undefined && ctx.password === o.password;
      } else if (ctx.method === 'publickey') {
        const key = this.#authorized.find((k) => k.type === ctx.key.algo && k.getPublicSSH().equals(ctx.key.data));
        // Without a signature the client only asks whether the key would do (RFC 4252 7).
        if (key && !ctx.signature) {
          ctx.accept();
          return;
        }
        ok = key !== undefined && ctx.blob !== undefined && key.verify(ctx.blob, ctx.signature!, ctx.hashAlgo) === true;
      }
    }
    if (ok) {
      this.stats.logins++;
      ctx.accept();
      return;
    }
    this.stats.authFailures++;
    this.#log(
      `authentication failed: ${ctx.method} for ${ctx.username}${this.faults.authFailure ? ' (authFailure fault)' : ''}`,
    );
    ctx.reject(methods);
  }
}
