// A test server, a client key it accepts, a known_hosts that knows it, and connection options
// for it: the common setup of the transport tests. Everything is undone by ava's teardown.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecutionContext } from 'ava';
import { HandshakeThrottle, type ThrottleOptions } from '../../../runner/transport/handshake-throttle.js';
import { hostKeyName } from '../../../runner/transport/known-hosts.js';
import { SshConnection, type ConnectionOptions } from '../../../runner/transport/ssh-connection.js';
import type { SshTarget } from '../../../runner/transport/target.js';
import { tempDir, TestSshServer, writeClientKey, type TestServerOptions } from './ssh-server.js';

export interface Fixture {
  server: TestSshServer;
  dir: string;
  keyFile: string;
  knownHosts: string;
  target: SshTarget;
  options: ConnectionOptions;
  open(overrides?: { target?: Partial<SshTarget>; options?: Partial<ConnectionOptions> }): Promise<SshConnection>;
}

export interface FixtureOptions {
  server?: TestServerOptions;
  /** Write the server's key into known_hosts (default true). */
  known?: boolean;
  throttle?: ThrottleOptions;
}

export async function fixture(t: ExecutionContext, o: FixtureOptions = {}): Promise<Fixture> {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const key = writeClientKey(dir);
  const server = await TestSshServer.start({ authorizedKeys: [key.public], ...o.server });
  t.teardown(() => server.close());
  const knownHosts = join(dir, 'known_hosts');
  if (o.known !== false)
    writeFileSync(knownHosts, `${hostKeyName('127.0.0.1', server.port)} ${server.hostKey.public}\n`);
  const target: SshTarget = {
    hostName: 'linux1',
    address: '127.0.0.1',
    port: server.port,
    user: 'root',
    keyFile: key.path,
  };
  const options: ConnectionOptions = {
    knownHostsFile: knownHosts,
    acceptNew: false,
    readyTimeoutMs: 5000,
    keepaliveIntervalMs: 0,
    keepaliveCountMax: 3,
    auth: { defaultKeyFiles: [] },
    throttle: new HandshakeThrottle({ baseDelayMs: 10, ...o.throttle }),
  };
  const connections: SshConnection[] = [];
  t.teardown(() => Promise.all(connections.map((c) => c.close())).then(() => undefined));
  return {
    server,
    dir,
    keyFile: key.path,
    knownHosts,
    target,
    options,
    async open(overrides = {}) {
      const c = await SshConnection.open({ ...target, ...overrides.target }, { ...options, ...overrides.options });
      connections.push(c);
      return c;
    },
  };
}
