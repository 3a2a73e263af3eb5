// The Kubernetes API double as a process (lab/cluster/api/, a TEST DOUBLE), as the lab runs it inside
// control1's network namespace:
//   node --import tsx lab/cluster/api/main.ts --state FILE --tls-dir DIR --listen ADDR:PORT --pidfile FILE
// DIR holds server.key, server.crt and token (tls.ts makes them). The pidfile is written once the server
// listens, so whoever waits for it can connect; SIGTERM closes it. Each request is one line on stdout
// (the lab appends it to its log); a failed start is one `kubernetes API double: ...` line and exit 1.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { startApiServer } from './server.js';
import { credentialFiles } from './tls.js';

function option(argv: readonly string[], name: string): string {
  const i = argv.indexOf(name);
  const v = i >= 0 ? argv[i + 1] : undefined;
  if (!v) throw new Error(`${name} is required`);
  return v;
}

async function main(argv: readonly string[]): Promise<void> {
  const state = option(argv, '--state');
  const files = credentialFiles(option(argv, '--tls-dir'));
  const m = /^([0-9.]+):(\d+)$/.exec(option(argv, '--listen'));
  if (!m) throw new Error('--listen must be ADDRESS:PORT');
  const pidfile = option(argv, '--pidfile');
  const server = await startApiServer({
    stateFile: state,
    key: readFileSync(files.key, 'utf8'),
    cert: readFileSync(files.cert, 'utf8'),
    token: readFileSync(files.token, 'utf8').trim(),
    host: m[1]!,
    port: Number(m[2]),
    log: (line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`),
  });
  writeFileSync(pidfile, `${process.pid}\n`);
  process.stdout.write(`${new Date().toISOString()} listening on ${server.url} (state ${state})\n`);
  const stop = () => {
    rmSync(pidfile, { force: true });
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e: Error) => {
    process.stderr.write(`kubernetes API double: ${e.message}\n`);
    process.exit(1);
  });
}
