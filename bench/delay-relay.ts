// A TCP relay on 127.0.0.1 that holds every chunk `delayMs` in each direction before passing it on:
// a network with latency in front of one lab host, for bench/round-trips.ts (the kernel's netem is
// not on every machine). Chunks of one direction keep their order: Node runs timers of the same
// duration in the order they were set.
import { connect, createServer, type Server, type Socket } from 'node:net';

export class DelayRelay {
  /** Milliseconds each chunk waits, each way; may change between connections. */
  delayMs = 0;
  readonly #open = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static start(address: string, port: number): Promise<DelayRelay> {
    return new Promise((started, fail) => {
      // Half-open allowed: an end passes on as an end, and the other way keeps flowing until its own.
      const server = createServer({ allowHalfOpen: true });
      server.on('error', fail).listen(0, '127.0.0.1', () => {
        const relay = new DelayRelay(server, (server.address() as { port: number }).port);
        server.on('connection', (client) =>
          relay.#carry(client, connect({ port, host: address, allowHalfOpen: true })),
        );
        started(relay);
      });
    });
  }

  #carry(client: Socket, upstream: Socket): void {
    const delay = this.delayMs;
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      this.#open.add(s);
      s.on('close', () => this.#open.delete(s));
    }
    const pass = (from: Socket, to: Socket) =>
      from
        .on('data', (chunk) => setTimeout(() => to.write(chunk), delay))
        .on('end', () => setTimeout(() => to.end(), delay))
        .on('error', () => to.destroy())
        .on('close', () => setTimeout(() => to.destroy(), delay));
    pass(client, upstream);
    pass(upstream, client);
  }

  close(): Promise<void> {
    return new Promise((done) => {
      this.server.close(() => done());
      for (const s of this.#open) s.destroy();
    });
  }
}
