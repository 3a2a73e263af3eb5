// The bench's delaying relay (bench/delay-relay.ts) in front of a local echo server: every byte passes,
// in order, both ways, whatever the delay; an end passes on; close() ends what is still open. Not timed:
// what the delay costs is what bench/round-trips.ts measures.
import { connect, createServer, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import { DelayRelay } from '../../bench/delay-relay.js';

async function echoServer(t: ExecutionContext): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined); // reset when the relay closes it
    s.pipe(s);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return (server.address() as { port: number }).port;
}

function through(port: number, chunks: readonly string[]): Promise<string> {
  return new Promise((done, fail) => {
    let got = '';
    const c = connect(port, '127.0.0.1', () => {
      for (const chunk of chunks) c.write(chunk);
      c.end();
    });
    c.on('data', (d) => (got += d))
      .on('end', () => done(got))
      .on('error', fail);
  });
}

test('every byte passes through, in order, both ways, with and without a delay; an end passes on', async (t) => {
  const relay = await DelayRelay.start('127.0.0.1', await echoServer(t));
  t.teardown(() => relay.close());
  const chunks = Array.from({ length: 200 }, (_, i) => `${i}:${'x'.repeat(i % 7)};`);
  for (const delay of [0, 3]) {
    relay.delayMs = delay;
    t.is(await through(relay.port, chunks), chunks.join(''), `delay ${delay}`);
  }
});

test('close() ends the connections still open', async (t) => {
  const relay = await DelayRelay.start('127.0.0.1', await echoServer(t));
  const c = connect(relay.port, '127.0.0.1');
  await new Promise<void>((r) => c.once('connect', () => r()));
  const closed = new Promise<void>((r) => c.once('close', () => r()));
  c.on('error', () => undefined);
  await relay.close();
  await closed;
  t.pass();
});
