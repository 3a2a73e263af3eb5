// The honest floor for a one-process SSH controller:
// `node bench/ssh2-floor.mjs [--scripts DIR] KEY KNOWN_HOSTS PARALLEL ADDR[:PORT]...` opens one ssh2
// connection per host (host key checked against KNOWN_HOSTS, the same key exchange play prefers),
// runs `true` once, closes, PARALLEL hosts at a time, and exits non-zero if any host failed. With
// --scripts, it runs DIR/ADDR[:PORT] instead of `true`, stdin closed as play closes it: the commands
// a play run sent (bench/capture-exec.cjs), so that the hosts' own work is in the floor. Plain
// JavaScript run by node, as play's compiled CLI is, so both pay the same start-up.
// OpenSSH's `ssh host true` is no floor for play: it spawns a process per host, which play does not.
// The least a controller does includes what play saves over ssh2's defaults, so the floor saves it
// too: the key is parsed once and signs with a KeyObject (runner/transport/private-key.ts), the host
// keys sshd announces are not asked to be proven (runner/transport/ssh-handshake.ts), and the key's
// first request is signed, without asking whether the server would take it (runner/transport/sign-at-once.ts).
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ssh2 from 'ssh2';

const args = process.argv.slice(2);
const named = args[0] === '--scripts';
const scripts = named ? args[1] : undefined;
const [keyFile, knownHostsFile, parallelText, ...addresses] = named ? args.slice(2) : args;
const parallel = Number(parallelText);
const usable = (!named || scripts) && keyFile && knownHostsFile && Number.isInteger(parallel) && parallel >= 1;
if (!usable || addresses.length === 0) {
  console.error('usage: node bench/ssh2-floor.mjs [--scripts DIR] KEY KNOWN_HOSTS PARALLEL ADDR[:PORT]...');
  process.exit(64);
}
/** What each host runs: `true`, or the script a play run sent it (read before the clock matters). */
const commands = new Map(addresses.map((a) => [a, scripts ? readFileSync(join(scripts, a), 'utf8') : 'true']));
const key = ssh2.utils.parseKey(readFileSync(keyFile));
{
  const own = (d) => key[Object.getOwnPropertySymbols(key).find((s) => s.description === d)];
  const keyObject = createPrivateKey(own('Private key PEM'));
  const hash = own('Hash Algorithm') ?? null;
  key.sign = (data, algo) => sign(algo || hash, data, keyObject);
}
/** address -> the base64 host key blobs known_hosts has for it. */
const known = new Map();
for (const line of readFileSync(knownHostsFile, 'utf8').split('\n')) {
  const [names, , blob] = line.trim().split(/\s+/);
  if (!names || !blob || names.startsWith('#')) continue;
  for (const n of names.split(',')) known.set(n, [...(known.get(n) ?? []), blob]);
}

function runOn(target) {
  const [host, portText] = target.split(':');
  const port = Number(portText ?? 22);
  // known_hosts names a host on another port than 22 as [host]:port, as OpenSSH does.
  const name = port === 22 ? host : `[${host}]:${port}`;
  return new Promise((resolve) => {
    const client = new ssh2.Client();
    const done = (ok) => {
      client.end();
      resolve(ok);
    };
    client
      .on('ready', () => {
        // As play does (ssh-handshake.ts): without it, Nagle holds the channel's last small packet for
        // the server's delayed ACK, about 40 ms a command.
        client.setNoDelay(true);
        client.exec(commands.get(target), (err, stream) => {
          if (err) return done(false);
          stream.on('close', (code) => done(code === 0)).resume();
          stream.stderr.resume();
          if (scripts) stream.end();
        });
      })
      .on('error', (e) => {
        if (process.env.FLOOR_DEBUG) console.error(`${host}: ${e.message}`);
        done(false);
      })
      .connect({
        host,
        port,
        username: 'root',
        authHandler: [{ type: 'publickey', username: 'root', key }],
        readyTimeout: 30_000,
        algorithms: { kex: ['curve25519-sha256', 'curve25519-sha256@libssh.org'] },
        hostVerifier: (blob) => (known.get(name) ?? []).includes(blob.toString('base64')),
      });
    const proto = client._protocol;
    const authPK = proto.authPK;
    proto.authPK = (username, pubKey, keyAlgo, cbSign) => {
      if (cbSign || typeof keyAlgo === 'function') return authPK.call(proto, username, pubKey, keyAlgo, cbSign);
      const hash = { 'rsa-sha2-256': 'sha256', 'rsa-sha2-512': 'sha512', 'ssh-rsa': 'sha1' }[keyAlgo];
      authPK.call(proto, username, pubKey, keyAlgo, (data, done) => done(pubKey.sign(data, hash)));
    };
    const handlers = client._protocol._handlers;
    const globalRequest = handlers.GLOBAL_REQUEST;
    handlers.GLOBAL_REQUEST = (p, name, wantReply, data) => {
      if (name !== 'hostkeys-00@openssh.com') return globalRequest(p, name, wantReply, data);
      if (wantReply) client._protocol.requestSuccess();
    };
  });
}

let next = 0;
let failed = 0;
async function worker() {
  while (next < addresses.length) {
    const host = addresses[next++];
    if (!(await runOn(host))) failed++;
  }
}
await Promise.all(Array.from({ length: Math.min(parallel, addresses.length) }, worker));
if (failed) {
  console.error(`ssh2-floor: ${failed} of ${addresses.length} hosts failed`);
  process.exit(1);
}
