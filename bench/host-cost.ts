// `npx tsx bench/host-cost.ts [--count 300]` (root, the lab up: `play lab up`): what one round trip costs
// a host, on one connection kept open to linux1 (host key checked): an exec channel running `true`;
// the same through `timeout` and `/bin/sh -c`, as play sends every command; the bench playbook's probe
// batch as play sends it; and the same batch written to one long-lived `/bin/sh` on the connection
// (what a kept shell would cost instead of a channel per command). Wall ms per command, and the
// machine's CPU ms per command (/proc/stat: the controller's side and the host's, as both run here).
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Client, type ClientChannel } from 'ssh2';
import { labUp } from '../lab/lab.js';
import { quoteSh } from '../runner/core/quote.js';
import { newNonce } from '../runner/core/nonce.js';
import { batchScript, readPathsOf } from '../runner/run/probe-batch.js';
import { ReadCache } from '../runner/run/read-cache.js';
import { command, directory, file, lineInFile, sysctl } from '../tasks/linux/index.js';

const { values } = parseArgs({ options: { count: { type: 'string', default: '300' } } });
const count = Number(values.count);

function machineBusyMs(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq: all but idle and iowait, in USER_HZ (100 a second)
  return (f[0]! + f[1]! + f[2]! + f[5]! + f[6]!) * 10;
}

async function connect(lab: Awaited<ReturnType<typeof labUp>>, address: string): Promise<Client> {
  const known = readFileSync(lab.knownHostsPath, 'utf8')
    .split('\n')
    .filter((l) => l.split(/\s+/)[0]?.split(',').includes(address))
    .map((l) => l.split(/\s+/)[2]);
  const client = new Client();
  await new Promise<void>((ready, fail) =>
    client
      .on('ready', () => ready())
      .on('error', fail)
      .connect({
        host: address,
        username: 'root',
        privateKey: readFileSync(lab.keyPath),
        hostVerifier: (key: Buffer) => known.includes(key.toString('base64')),
      }),
  );
  client.setNoDelay(true); // as play does (ssh-handshake.ts)
  return client;
}

function exec(client: Client, command: string): Promise<void> {
  return new Promise((done, fail) =>
    client.exec(command, (err, ch) => {
      if (err) return fail(err);
      ch.on('close', () => done()).resume();
      ch.stderr.resume();
    }),
  );
}

/** One /bin/sh on the connection: each command written to its stdin, its end marked on stdout. */
async function keptShell(client: Client): Promise<(script: string) => Promise<string>> {
  const ch = await new Promise<ClientChannel>((ok, fail) =>
    client.exec('exec /bin/sh', (e, c) => (e ? fail(e) : ok(c))),
  );
  ch.stderr.resume();
  let out = '';
  let waiting: ((out: string) => void) | null = null;
  ch.on('data', (d: Buffer) => {
    out += d;
    if (waiting && out.endsWith('@@host-cost@@\n')) {
      const got = out.slice(0, -'@@host-cost@@\n'.length);
      out = '';
      const w = waiting;
      waiting = null;
      w(got);
    }
  });
  return (script) =>
    new Promise((done) => {
      waiting = done;
      ch.write(`( ${script}\n) </dev/null\necho @@host-cost@@\n`);
    });
}

async function measure(name: string, once: () => Promise<void>): Promise<void> {
  await once();
  const busy = machineBusyMs();
  const t = performance.now();
  for (let i = 0; i < count; i++) await once();
  const wall = (performance.now() - t) / count;
  console.log(
    `${name.padEnd(52)} ${wall.toFixed(2).padStart(7)} ms wall ${((machineBusyMs() - busy) / count).toFixed(2).padStart(7)} ms CPU`,
  );
}

const lab = await labUp({});
const host = lab.hosts.find((h) => h.name === 'linux1')!;
const client = await connect(lab, host.address);
const root = '/srv/play-bench';
// playbooks/bench.ts's five steps on linux1 (bench/run.ts leaves them converged; on a fresh lab the
// probes see nothing and cost less).
const probes = [
  directory({ path: root, mode: '0755' }),
  file({ path: `${root}/app.conf`, content: '# managed by play\nhost=linux1\n', mode: '0644' }),
  lineInFile({ path: `${root}/settings.ini`, regexp: '^port=', line: 'port=8080', create: true }),
  command({ command: ['touch', `${root}/initialized`], creates: `${root}/initialized` }),
  sysctl({ key: 'net.ipv4.ip_forward', value: '1', file: '/etc/sysctl.d/90-play-bench.conf' }),
].map((s) => s.probe().script);
const batch = batchScript(probes, newNonce()).text;
console.log(`host-cost: linux1 (${host.address}), ${count} commands each, one connection kept open`);
await measure('exec channel: true', () => exec(client, 'true'));
await measure('exec channel: timeout -k 5 30 /bin/sh -c true', () => exec(client, 'timeout -k 5 30 /bin/sh -c true'));
await measure("exec channel: the bench's probe batch, as play sends it", () =>
  exec(client, `timeout -k 5 30 /bin/sh -c ${quoteSh(batch)}`),
);
const shell = await keptShell(client);
await measure('kept /bin/sh: true', () => shell('true').then(() => undefined));
await measure("kept /bin/sh: the bench's probe batch", () => shell(batch).then(() => undefined));
// The batch as a kept connection sends it from its second tick on: the files read at the first are
// known, and the host runs one sha256sum instead of reading them (read-cache.ts).
const reads = new ReadCache();
const first = reads.batch(readPathsOf(probes), newNonce());
const nonce = newNonce();
first.expand(await shell(batchScript(probes, nonce, first.prelude).text));
const warm = reads.batch(readPathsOf(probes), nonce);
const known = batchScript(probes, nonce, warm.prelude).text;
await measure("kept /bin/sh: the bench's probe batch, files known", () => shell(known).then(() => undefined));
await measure("exec channel: the bench's probe batch, files known", () =>
  exec(client, `timeout -k 5 30 /bin/sh -c ${quoteSh(known)}`),
);
client.end();
