// End to end on the shared default lab (needs root): real OpenSSH into real namespaces. Nothing here
// breaks a host or takes the lab down: other test files use it at the same time. The destructive
// checks (killed sshd, labDown, ip_forward) run in a private lab: sandbox.test.ts.
import test from 'ava';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { labInventoryPath, labStatus } from '../../lab/lab.js';
import { ensureLab, sshRun } from '../helpers/lab.js';

const nonce = `${process.pid}-${randomBytes(4).toString('hex')}`;

test('each host answers real OpenSSH (strict host key checking) with its own hostname', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const linux = lab.hosts.filter((h) => h.group === 'linux');
  t.true(linux.length >= 4);
  const results = await Promise.all(linux.map((h) => sshRun(lab, h, 'hostname; cat /etc/hostname')));
  results.forEach((r, i) => {
    t.is(r.code, 0, r.stderr);
    t.is(r.stdout, `${linux[i]!.name}\n${linux[i]!.name}\n`);
  });
});

test('/etc/sysctl.d is private per host: a file written on linux1 is seen neither on linux2 nor here', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const file = `/etc/sysctl.d/90-play-lab-test-${nonce}.conf`;
  const [l1, l2] = [lab.host('linux1'), lab.host('linux2')];
  try {
    t.is(
      (await sshRun(lab, l1, `echo 'net.ipv4.ip_forward = 1' > ${file} && cat ${file}`)).stdout,
      'net.ipv4.ip_forward = 1\n',
    );
    t.is((await sshRun(lab, l2, `test -e ${file}; echo $?`)).stdout, '1\n');
    t.false(existsSync(file));
    t.true(existsSync(`/etc/netns/linux1/sysctl.d/90-play-lab-test-${nonce}.conf`));
  } finally {
    await sshRun(lab, l1, `rm -f ${file}`);
  }
});

test('/tmp, /srv, /opt and /var/tmp are private per host', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const [l1, l2] = [lab.host('linux1'), lab.host('linux2')];
  const names = ['/tmp', '/srv', '/opt', '/var/tmp'].map((d) => `${d}/play-lab-test-${nonce}`);
  try {
    t.is((await sshRun(lab, l1, `touch ${names.join(' ')} && ls ${names.join(' ')} | wc -l`)).stdout.trim(), '4');
    t.is((await sshRun(lab, l2, `ls ${names.join(' ')} 2>/dev/null | wc -l`)).stdout.trim(), '0');
    for (const n of names) t.false(existsSync(n), n);
    t.is((await sshRun(lab, l1, 'stat -c %a /tmp /var/tmp')).stdout, '1777\n1777\n');
  } finally {
    await sshRun(lab, l1, `rm -f ${names.join(' ')}`);
  }
});

test("sessions read a plain /root/.bashrc, not the machine's", async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const r = await sshRun(lab, lab.host('linux3'), 'cat /root/.bashrc');
  t.regex(r.stdout, /play lab host: plain/);
});

test('hosts have eth1 with their address, loopback up, no default route', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const h = lab.host('linux2');
  const r = await sshRun(lab, h, 'ip -4 -o addr show dev eth1; ip -o link show lo; ip route show default | wc -l');
  t.regex(r.stdout, new RegExp(`eth1\\s+inet ${h.address.replace(/\./g, '\\.')}/24`));
  t.regex(r.stdout, /lo: <LOOPBACK,UP/);
  t.true(r.stdout.endsWith('\n0\n'));
});

test('up again leaves healthy hosts alone: same sshd pids, same host keys, known_hosts still valid', async (t) => {
  const first = await ensureLab({ linux: 4 });
  const second = await ensureLab({ linux: 4 });
  const pick = (s: typeof first.state) => s.hosts.slice(0, 4).map((h) => [h.name, h.sshdPid, h.hostKey]);
  t.deepEqual(pick(second.state), pick(first.state));
  const known = readFileSync(second.knownHostsPath, 'utf8');
  for (const h of second.state.hosts) t.true(known.includes(`${h.address} ${h.hostKey}\n`), h.name);
});

test('asking for fewer hosts keeps the others and says so', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const smaller = await ensureLab({ linux: 1 });
  t.true(smaller.hosts.length >= lab.hosts.length);
  t.true(smaller.state.kept.includes('linux4'));
  t.regex(smaller.state.notes.join('\n'), /kept .*linux4/);
});

test('status: every host has its namespace, a live sshd, and answers on port 22', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  t.is(labInventoryPath(), lab.inventoryPath);
  const status = await labStatus();
  for (const name of ['linux1', 'linux2', 'linux3', 'linux4']) {
    const h = status.hosts.find((x) => x.name === name);
    t.like(h, { namespace: true, sshdAlive: true, reachable: true }, name);
  }
});

function run(file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { encoding: 'utf8', timeout: 60_000, env: { ...process.env, ANSIBLE_HOST_KEY_CHECKING: 'True' } },
      (e, stdout, stderr) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, stdout, stderr }),
    );
  });
}

const ansible = ['/usr/bin/ansible', '/usr/bin/ansible-inventory'].every(existsSync);
(ansible ? test : test.skip)('Ansible reads the inventory and reaches a host with it', async (t) => {
  const lab = await ensureLab({ linux: 4 });
  const inv = await run('/usr/bin/ansible-inventory', ['-i', lab.inventoryPath, '--list']);
  t.is(inv.code, 0, inv.stderr);
  const list = JSON.parse(inv.stdout);
  t.true(list.linux.hosts.includes('linux4'));
  t.is(list._meta.hostvars.linux1.ansible_host, '198.18.0.101');
  const ping = await run('/usr/bin/ansible', ['-i', lab.inventoryPath, 'linux1', '-m', 'raw', '-a', 'hostname']);
  t.is(ping.code, 0, ping.stdout + ping.stderr);
  t.regex(ping.stdout, /linux1 \| CHANGED.*\n.*linux1/);
});
