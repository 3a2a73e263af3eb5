// A test double of a Linux sshd on 127.0.0.1: ssh2's Server with an ed25519 host key, running exec
// requests with the real /bin/sh. It can count concurrent sessions and refuse beyond MaxSessions,
// drop the first N TCP connections before the SSH banner (as MaxStartups does), take passwords,
// and kill every connection (a host that goes away).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as connectTcp, createServer, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import type { AuthContext, Connection, ParsedKey, ServerChannel, TcpipRequestInfo } from 'ssh2';

const { Server, utils } = ssh2;

export interface KeyPair {
  /** OpenSSH private key text. */
  readonly private: string;
  /** `ssh-ed25519 AAAA...` */
  readonly public: string;
}

/**
 * A fresh key pair. ssh2's generator strips leading zero bytes from an ed25519 public key, so about
 * 1 key in 256 is unreadable by its own parser (mscdex/ssh2#1390, #1513): those are drawn again.
 */
export function generateKey(type: 'ed25519' | 'ecdsa' = 'ed25519'): KeyPair {
  for (;;) {
    const k =
      type === 'ecdsa' ? utils.generateKeyPairSync('ecdsa', { bits: 256 }) : utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(k.private) instanceof Error) && !(utils.parseKey(k.public) instanceof Error)) {
      return { private: k.private, public: k.public };
    }
  }
}

/** The raw public key blob of an `ssh-ed25519 AAAA...` line. */
export function blobOf(publicLine: string): Buffer {
  return Buffer.from(publicLine.split(' ')[1]!, 'base64');
}

/** A temp dir removed by the returned cleanup. */
export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'play-transport-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a fresh client key to `dir/name` (mode 0600) and returns its path and public line. */
export function writeClientKey(dir: string, name = 'id_ed25519'): { path: string; public: string } {
  const k = generateKey();
  const path = join(dir, name);
  writeFileSync(path, k.private, { mode: 0o600 });
  writeFileSync(`${path}.pub`, `${k.public} test\n`);
  return { path, public: k.public };
}

export interface TestServerOptions {
  hostKey?: KeyPair;
  /** More host keys (private key texts), e.g. an ECDSA key next to the ed25519 one. */
  extraHostKeys?: readonly string[];
  /** Public key lines allowed to log in. */
  authorizedKeys?: readonly string[];
  password?: string;
  /** Only this user may log in (default: any). */
  user?: string;
  /** Close the first N TCP connections before the SSH banner. */
  dropFirst?: number;
  /** 'close' ends the socket (ssh2: Connection lost before handshake), 'reset' sends a RST. */
  dropMode?: 'close' | 'reset';
  /** Session channels allowed at once per connection; more are refused (default 10, like sshd). */
  maxSessions?: number;
  /** Open direct-tcpip channels (a jump host's `ssh -W`) by connecting to their destination; without
   *  it they are refused as administratively prohibited (sshd's AllowTcpForwarding no). */
  forwardTcp?: boolean;
  /** Exec requests to refuse (sshd answers a failure when it cannot start the command); their channel
   *  stays open until the client closes it, as sshd's does. */
  refuseExec?: (command: string) => boolean;
}

export class TestSshServer {
  readonly hostKey: KeyPair;
  readonly #net: NetServer;
  readonly #sockets = new Set<Socket>();
  readonly #children = new Set<ChildProcess>();
  readonly #authorized: ParsedKey[];
  tcpConnections = 0;
  dropped = 0;
  readonly authAttempts: { method: string; user: string; ok: boolean }[] = [];
  /** Public key requests without a signature: the client asking whether a key would do. */
  keyQuestions = 0;
  openSessions = 0;
  peakSessions = 0;
  refusedSessions = 0;
  readonly signals: string[] = [];
  readonly commands: string[] = [];
  /** The exec requests refused (refuseExec), in order. */
  readonly refused: string[] = [];
  /** direct-tcpip channels asked for, as `address:port`. */
  readonly forwards: string[] = [];

  private constructor(
    readonly options: TestServerOptions,
    readonly port: number,
    net: NetServer,
    hostKey: KeyPair,
  ) {
    this.#net = net;
    this.hostKey = hostKey;
    this.#authorized = (options.authorizedKeys ?? []).map((line) => {
      const k = utils.parseKey(line);
      if (k instanceof Error) throw k;
      return Array.isArray(k) ? k[0]! : k;
    });
  }

  static async start(options: TestServerOptions = {}): Promise<TestSshServer> {
    const hostKey = options.hostKey ?? generateKey();
    let self!: TestSshServer;
    // PLAY_SSH_DEBUG=1 prints ssh2's protocol trace of the server side.
    const debug = process.env.PLAY_SSH_DEBUG ? (m: string) => console.error('sshd:', m) : undefined;
    const ssh = new Server({ hostKeys: [hostKey.private, ...(options.extraHostKeys ?? [])], debug }, (client) =>
      self.#onClient(client),
    );
    const net = createServer((socket) => {
      self.tcpConnections++;
      self.#sockets.add(socket);
      socket.on('close', () => self.#sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.setNoDelay(true);
      if (self.dropped < (options.dropFirst ?? 0)) {
        self.dropped++;
        if (options.dropMode === 'reset') socket.resetAndDestroy();
        else socket.destroy();
        return;
      }
      ssh.injectSocket(socket);
    });
    await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
    const port = (net.address() as { port: number }).port;
    self = new TestSshServer(options, port, net, hostKey);
    return self;
  }

  /** The host key as ssh2's hostVerifier and known_hosts see it. */
  get hostKeyBlob(): Buffer {
    return blobOf(this.hostKey.public);
  }
  /** TCP connections still open (clients, and the sockets of forwarded channels). */
  get openSockets(): number {
    return this.#sockets.size;
  }
  /** Commands still running. */
  get running(): number {
    return this.#children.size;
  }
  /** The user auth attempts that reached the server, one per method tried. */
  get logins(): number {
    return this.authAttempts.filter((a) => a.ok).length;
  }

  /** Destroys every TCP connection at once, as a host that reboots or a dropped link would. */
  killConnections(): void {
    for (const s of this.#sockets) s.destroy();
  }

  async close(): Promise<void> {
    this.killConnections();
    for (const c of this.#children) killGroup(c, 'SIGKILL');
    await new Promise<void>((resolve) => this.#net.close(() => resolve()));
  }

  #onClient(client: Connection): void {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => this.#authenticate(ctx));
    if (this.options.forwardTcp) client.on('tcpip', (accept, reject, info) => this.#forward(accept, reject, info));
    const sessions = new Set<() => void>();
    // A dead connection sends no CHANNEL_CLOSE: give its sessions back here.
    client.on('close', () => {
      for (const closeSession of [...sessions]) closeSession();
    });
    client.on('session', (accept, reject) => {
      if (this.openSessions >= (this.options.maxSessions ?? 10)) {
        this.refusedSessions++;
        return reject();
      }
      const session = accept();
      // ssh2's Server drops every channel request after the client's EOF (it marks the session
      // ending); sshd handles `signal` until the channel closes, and so does this double.
      Object.defineProperty(session, '_ending', { get: () => false, set: () => undefined });
      this.openSessions++;
      this.peakSessions = Math.max(this.peakSessions, this.openSessions);
      let child: ChildProcess | null = null;
      const closeSession = () => {
        if (!sessions.delete(closeSession)) return;
        this.openSessions--;
        if (child) killGroup(child, 'SIGKILL');
      };
      sessions.add(closeSession);
      session.on('close', closeSession);
      session.on('signal', (acceptSignal, _reject, info) => {
        this.signals.push(info.name);
        if (child) killGroup(child, `SIG${info.name.replace(/^SIG/, '')}` as NodeJS.Signals);
        acceptSignal?.();
      });
      session.on('exec', (acceptExec, rejectExec, info) => {
        if (this.options.refuseExec?.(info.command)) {
          this.refused.push(info.command);
          return this.#refuse(client, session, rejectExec);
        }
        const stream = acceptExec();
        this.commands.push(info.command);
        // Its own process group, so a signal reaches the whole pipeline as sshd's would.
        const c = spawn('/bin/sh', ['-c', info.command], { detached: true, stdio: 'pipe' });
        child = c;
        this.#children.add(c);
        c.stdin.on('error', () => undefined);
        stream.pipe(c.stdin);
        c.stdout.pipe(stream, { end: false });
        c.stderr.pipe(stream.stderr, { end: false });
        c.on('close', (code, signal) => {
          this.#children.delete(c);
          if (!sessions.has(closeSession)) return; // the client closed the channel first
          if (signal) stream.exit(signal.replace(/^SIG/, ''), false, '');
          else stream.exit(code ?? 0);
          stream.end();
        });
      });
    });
  }

  /** Answers an exec request with a failure, and the client's close of its session with a close, as
   *  sshd does: ssh2's Server never answers the close of a session it gave no channel (internals). */
  #refuse(client: Connection, session: object, rejectExec: () => void): void {
    rejectExec();
    const info = (session as { _chanInfo: { incoming: { id: number }; outgoing: { id: number } } })._chanInfo;
    const inner = client as unknown as {
      _protocol: { channelClose(id: number): void };
      _chanMgr: { remove(id: number): void };
    };
    (session as { once(e: 'close', f: () => void): void }).once('close', () => {
      inner._chanMgr.remove(info.incoming.id);
      inner._protocol.channelClose(info.outgoing.id);
    });
  }

  /** Connects a direct-tcpip channel to its destination, as sshd does; a failed connect refuses it. */
  #forward(accept: () => ServerChannel, reject: () => void, info: TcpipRequestInfo): void {
    this.forwards.push(`${info.destIP}:${info.destPort}`);
    const socket = connectTcp({ host: info.destIP, port: info.destPort });
    socket.once('error', () => reject());
    socket.once('connect', () => {
      const channel = accept();
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      channel.on('error', () => undefined);
      socket.pipe(channel).pipe(socket);
      channel.on('close', () => socket.destroy());
    });
  }

  #authenticate(ctx: AuthContext): void {
    const o = this.options;
    const userOk = o.user === undefined || ctx.username === o.user;
    let ok = false;
    if (ctx.method === 'password') {
      ok = userOk && o.password !== undefined && ctx.password === o.password;
    } else if (ctx.method === 'publickey') {
      const key = this.#authorized.find((k) => k.type === ctx.key.algo && k.getPublicSSH().equals(ctx.key.data));
      // Without a signature the client only asks whether the key would do (RFC 4252 7).
      if (!ctx.signature) this.keyQuestions++;
      if (userOk && key && !ctx.signature) {
        ctx.accept();
        return;
      }
      ok =
        userOk &&
        key !== undefined &&
        ctx.blob !== undefined &&
        key.verify(ctx.blob, ctx.signature!, ctx.hashAlgo) === true;
    }
    if (ctx.method !== 'none') this.authAttempts.push({ method: ctx.method, user: ctx.username, ok });
    const methods: ('publickey' | 'password')[] = ['publickey'];
    if (o.password !== undefined) methods.push('password');
    if (ok) ctx.accept();
    else ctx.reject(methods);
  }
}

function killGroup(c: ChildProcess, signal: NodeJS.Signals): void {
  if (c.exitCode !== null || c.signalCode !== null || c.pid === undefined) return;
  try {
    process.kill(-c.pid, signal);
  } catch {
    c.kill(signal);
  }
}
