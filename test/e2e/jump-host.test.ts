// Jump hosts end to end: the lab's bastion1 and private1, private2 behind it (on a bridge the root
// namespace has no address or route on), driven by `play` as a user types it, with the lab's
// inventory (`ansible_ssh_common_args: -o ProxyJump=root@198.18.2.1` on the private group). One
// login on the bastion for the whole run, host keys checked on both hops, no way around the bastion.
// Serial: the tests count the bastion's logins.
import test from 'ava';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { hostPaths } from '../../lab/paths.js';
import { ensureLab, runLocal, type Lab } from '../helpers/lab.js';
import { play, projectRoot, scratch } from '../helpers/play.js';

let lab: Lab;
test.before(async () => {
  lab = await ensureLab({ bastion: 1, private: 2 });
});

const PLAYBOOK = resolve(projectRoot, 'test/e2e/playbooks/behind-bastion.ts');
/** The lab may hold more hosts behind the bastion than this file asked for. */
const HIDDEN = ['-l', 'private1:private2'];
const bastion = () => lab.host('bastion1');
const sshdLog = (host: string) => hostPaths(lab.state.dir, host).log;
/** Logins sshd accepted so far ("Accepted publickey for root from ..." lines of its log). */
const logins = (host: string, from = '') =>
  readFileSync(sshdLog(host), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith(`Accepted publickey for root from ${from}`)).length;

/** A copy of the lab inventory with its own known_hosts (edited by `knownHosts`) and the private group's
 *  ssh args from `privateArgs(knownHostsFile)`. */
function inventoryCopy(privateArgs: (kh: string) => string, knownHosts: (text: string) => string = (x) => x): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-jump-'));
  const kh = join(dir, 'known_hosts');
  writeFileSync(kh, knownHosts(readFileSync(lab.knownHostsPath, 'utf8')));
  const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  inv.all.vars.ansible_ssh_common_args = `-o UserKnownHostsFile=${kh}`;
  inv.all.children.private.vars.ansible_ssh_common_args = privateArgs(kh);
  const path = join(dir, 'inventory.yaml');
  writeFileSync(path, YAML.stringify(inv));
  return path;
}

/** known_hosts with `address`'s key replaced by `other`'s: a host that "changed" its key. */
const swapKey = (address: string, other: string) => (text: string) => {
  const keyOf = (a: string) =>
    text
      .split('\n')
      .find((l) => l.startsWith(`${a} `))!
      .slice(a.length + 1);
  return text.replace(`${address} ${keyOf(address)}`, `${address} ${keyOf(other)}`);
};

/** A command on a host behind the bastion, with OpenSSH (its ProxyJump would not pass the lab's key
 *  and known_hosts to the jump: a ProxyCommand does). */
async function onPrivateHost(host: string, command: string): Promise<string> {
  const jump = `ssh -i ${lab.keyPath} -o UserKnownHostsFile=${lab.knownHostsPath} -o BatchMode=yes -W %h:%p root@${bastion().address}`;
  const r = await runLocal('ssh', ['-o', `ProxyCommand=${jump}`, ...lab.sshArgs(lab.host(host)), command]);
  if (r.code !== 0) throw new Error(`${command} on ${host}: exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

const cleanUp = (dir: string) =>
  Promise.all(['private1', 'private2'].map((h) => onPrivateHost(h, `rm -rf ${dir}`))).then(() => undefined);

test.serial(
  'a playbook on the hosts behind the bastion converges, then changes nothing; one bastion login per run',
  async (t) => {
    const dir = scratch('jump');
    t.teardown(() => cleanUp(dir));
    const run = async () => {
      const before = { bastion: logins('bastion1'), private1: logins('private1', '198.18.32.1 ') };
      const started = performance.now();
      const r = await play([PLAYBOOK, ...HIDDEN, '-e', `dir=${dir}`, '--json']);
      t.is(r.code, 0, r.stderr);
      t.log(`play through the bastion, 2 hosts: ${Math.round(performance.now() - started)} ms`);
      return {
        summary: JSON.parse(r.stdout).summary,
        bastionLogins: logins('bastion1') - before.bastion,
        // private1 sees its login come from the bastion's private address: it went through the bastion.
        private1LoginsFromBastion: logins('private1', '198.18.32.1 ') - before.private1,
      };
    };
    t.deepEqual(await run(), {
      summary: { ok: 0, changed: 2, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 },
      bastionLogins: 1,
      private1LoginsFromBastion: 1,
    });
    t.deepEqual(await run(), {
      summary: { ok: 2, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 },
      bastionLogins: 1,
      private1LoginsFromBastion: 1,
    });
    t.is(await onPrivateHost('private2', `cat ${dir}/note`), 'hello from private2\n');
  },
);

test.serial('a changed host key is refused on either hop, naming the hop', async (t) => {
  const dir = scratch('jump');
  t.teardown(() => cleanUp(dir));
  const target = inventoryCopy(
    (kh) => `-o UserKnownHostsFile=${kh} -o ProxyJump=root@198.18.2.1`,
    swapKey('198.18.32.11', '198.18.32.12'),
  );
  const r = await play([PLAYBOOK, ...HIDDEN, '-i', target, '-e', `dir=${dir}`]);
  t.is(r.code, 4, r.stderr);
  t.regex(
    r.stdout,
    /private1 +unreachable .*HOST KEY CHANGED for private1 \(198\.18\.32\.11:22 via 198\.18\.2\.1:22\): \S+known_hosts:\d+ has SHA256:/,
  );
  t.regex(r.stdout, /private2 +changed/, 'the other host behind the same bastion goes on');

  const hop = inventoryCopy(
    (kh) => `-o UserKnownHostsFile=${kh} -o ProxyJump=root@198.18.2.1`,
    swapKey('198.18.2.1', '198.18.32.12'),
  );
  const before = logins('bastion1');
  const b = await play([PLAYBOOK, ...HIDDEN, '-i', hop, '-e', `dir=${dir}`]);
  t.is(b.code, 4, b.stderr);
  t.regex(
    b.stdout,
    /private1 +unreachable .*host private1 \(198\.18\.32\.11:22 via 198\.18\.2\.1:22\): jump host 198\.18\.2\.1: HOST KEY CHANGED for 198\.18\.2\.1 \(198\.18\.2\.1:22\)/,
  );
  t.is(logins('bastion1'), before, 'no login on a bastion whose key changed');
});

test.serial('the hosts behind the bastion cannot be reached directly', async (t) => {
  const direct = inventoryCopy((kh) => `-o UserKnownHostsFile=${kh}`);
  const r = await play([PLAYBOOK, ...HIDDEN, '-i', direct, '-e', `dir=${scratch('jump')}`]);
  t.is(r.code, 4, r.stderr);
  for (const [host, address] of [
    ['private1', '198.18.32.11'],
    ['private2', '198.18.32.12'],
  ])
    t.regex(
      r.stdout,
      new RegExp(`${host} +unreachable .*host ${host} \\(${address.replaceAll('.', '\\.')}:22\\): address unreachable`),
    );
});
