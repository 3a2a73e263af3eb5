// The Kubernetes API double (lab/cluster/api/, a TEST DOUBLE of kube-apiserver as kubectl and play use
// it): HTTPS (node:https) with a server certificate the client verifies against the lab's CA, a bearer
// token checked on every request (a missing or wrong one is 401, as with an API server that allows no
// anonymous requests), and the cluster's state file behind it (cluster-state.ts), read afresh on each
// request since the simulated Windows nodes write it too. One request at a time: the handlers are
// synchronous, under the state's lock when they write.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { ApiContext } from './context.js';
import { readRequest } from './request.js';
import { route } from './router.js';
import { badRequest, internalError, type Reply, tooLarge, unauthorized } from './status.js';

export interface ApiServerOptions {
  stateFile: string;
  /** PEM: the server's key and certificate (for the address clients use). */
  key: string;
  cert: string;
  /** The bearer token every request must carry. */
  token: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** One line per request (method, path, status, client), for the log. */
  log?: (line: string) => void;
}

export interface RunningApiServer {
  /** https://HOST:PORT */
  url: string;
  port: number;
  close(): Promise<void>;
  /** Lets the process exit while the server still listens (a test's server, closed or not). */
  unref(): void;
}

const MAX_BODY = 1 << 20;

function authorized(header: string | undefined, token: string): boolean {
  const m = /^Bearer (\S+)$/.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

function answer(ctx: ApiContext, req: IncomingMessage, body: string, serverAddress: string): Reply {
  const r = readRequest(req.method ?? 'GET', req.url ?? '/', req.headers, body, req.socket.remoteAddress);
  if ('error' in r) return badRequest(r.error);
  try {
    return route(r, ctx, serverAddress);
  } catch (e) {
    return internalError((e as Error).message);
  }
}

export function startApiServer(o: ApiServerOptions): Promise<RunningApiServer> {
  const ctx: ApiContext = { stateFile: o.stateFile, now: () => Date.now(), drainSessions: new Set() };
  let serverAddress = `${o.host}:${o.port}`;
  const server: Server = createServer({ key: o.key, cert: o.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const reply: Reply = !authorized(req.headers.authorization, o.token)
        ? unauthorized()
        : size > MAX_BODY
          ? tooLarge()
          : answer(ctx, req, Buffer.concat(chunks).toString('utf8'), serverAddress);
      const text = JSON.stringify(reply.body);
      res.writeHead(reply.code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
      o.log?.(
        `${req.method} ${req.url} ${reply.code} ${req.socket.remoteAddress ?? '-'} ${req.headers['user-agent'] ?? '-'}`,
      );
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      const port = (server.address() as AddressInfo).port;
      serverAddress = `${o.host}:${port}`;
      resolve({
        url: `https://${o.host}:${port}`,
        port,
        unref: () => void server.unref(),
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
