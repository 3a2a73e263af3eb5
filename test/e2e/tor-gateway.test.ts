// tor-gateway end to end: the real CLI over real SSH against the lab's three ToR hosts, real
// keepalived electing over real VRRP (unicast, over the lab bridge). VIPs are looked at from
// outside the hosts (`ip -n torN`); keepalived is crashed by killing its processes by pid.
//
// The tor hosts are also used by onboard-windows.test.ts: each file holds the tor-hosts lock
// (fixtures/lab-locks.ts) from its first to its last test, so the two never run on them at once. Its
// tests run in order and share their state: the first run configures, later ones converge, drift,
// crash and fail on top of it. Before and after, keepalived is stopped on the tor hosts, so every
// run of the suite starts clean.
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import YAML from 'yaml';
import { ensureLab, onLabHost, type Lab } from '../helpers/lab.js';
import { play, projectRoot, type CliResult, unstamped } from '../helpers/play.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { writeWithGroupVars } from './fixtures/group-vars.js';
import { keepalivedPids, stopKeepalived, torAddresses, TORS } from './fixtures/tor-hosts.js';
import { waitFor } from '../helpers/wait.js';
import { VRRP_SETTLE_MS } from '../helpers/vrrp.js';

/** Lab VIPs live in 198.19.0.0/16, inside the lab's routed 198.18.0.0/15. */
const NODES = {
  win1: { ansible_host: '198.18.1.1', pod_cidr: '198.19.11.0/24' },
  win2: { ansible_host: '198.18.1.2', pod_cidr: '198.19.12.0/24', pod_gateway: '198.19.12.1' },
};
const VIPS = ['198.19.11.1', '198.19.12.1'];
const ENV = { VRRP_AUTH_PASS: 'lab-vrrp' };
const CONF = '/etc/keepalived/keepalived.conf';
/** A failover after a crash takes about 3 s (docs/lab.md#vrrp-timings): the bound the acceptance asks for. */
const FAILOVER_MS = 5_000;

let lab: Lab;
let inventory: string;
let releaseTorHosts: (() => Promise<void>) | undefined;

const fixture = (name: string) => resolve(projectRoot, 'test/e2e/fixtures', `${name}.ts`);
const tmpDirs: string[] = [];
const tmp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'play-tor-'));
  tmpDirs.push(dir);
  return dir;
};

/** A copy of the lab inventory with its own known_hosts, a `windows` group with pod CIDRs, and no control host;
 *  the tor group's vars in group_vars/tor.yml beside it, as an Ansible user keeps them. */
function inventoryCopy(edit: (inv: any) => void = () => {}): string {
  const dir = tmp();
  const knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, readFileSync(lab.knownHostsPath));
  const inv = YAML.parse(readFileSync(lab.inventoryPath, 'utf8'));
  inv.all.vars.ansible_ssh_common_args = `-o UserKnownHostsFile=${knownHosts}`;
  inv.all.children.windows = { hosts: structuredClone(NODES) };
  // The pod CIDRs are these vars alone: without a control group, tor-gateway reads no cluster.
  delete inv.all.children.control;
  edit(inv);
  const path = join(dir, 'inventory.yaml');
  writeWithGroupVars(path, inv, ['tor']);
  return path;
}

const onHost = (host: string, cmd: string) => onLabHost(lab, host, cmd);

/** tor-gateway with the test inventory; `--json` reports parsed. */
async function torGateway(
  args: string[] = [],
  env: NodeJS.ProcessEnv = ENV,
  inv = inventory,
): Promise<CliResult & { report: any }> {
  const r = await play(['tor-gateway', '-i', inv, ...args], env);
  let report: any = null;
  if (args.includes('--json') && r.stdout.trim().startsWith('{')) report = JSON.parse(r.stdout);
  return { ...r, report };
}

/** The tor hosts holding each VIP, seen from inside their namespaces. */
async function holders(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = Object.fromEntries(VIPS.map((v) => [v, []]));
  await Promise.all(
    TORS.map(async (tor) => {
      const addrs = await torAddresses(tor);
      for (const vip of VIPS) if (addrs.includes(` ${vip}/`)) out[vip]!.push(tor);
    }),
  );
  for (const v of VIPS) out[v]!.sort();
  return out;
}

/** Each VIP on exactly one tor host, the same for all VIPs (one VRRP instance): that host. */
async function singleHolder(): Promise<string | false> {
  const h = await holders();
  const sets = VIPS.map((v) => h[v]!);
  return sets.every((s) => s.length === 1 && s[0] === sets[0]![0]) ? sets[0]![0]! : false;
}

/** The pid in the host's keepalived pidfile (the daemon's parent). */
function mainPid(tor: string): number {
  return Number(readFileSync(`/etc/netns/${tor}/keepalived/run/keepalived.pid`, 'utf8').trim());
}

const sha256 = async (tor: string) =>
  (await onHost(tor, `sha256sum ${CONF} 2>/dev/null || echo absent`)).split(' ')[0]!.trim();

function steps(
  report: any,
  host: string,
): Record<
  string,
  {
    status: string;
    action: string | null;
    error: string | null;
    textDiff?: string;
    warnings?: string[];
    fields: string[];
  }
> {
  return Object.fromEntries(report.hosts[host].steps.map((s: any) => [s.task, s]));
}

test.before(async (t) => {
  releaseTorHosts = await holdTorHosts();
  lab = await ensureLab({ tor: 3 });
  inventory = inventoryCopy();
  await stopKeepalived(lab, t);
  // A first run from scratch: no config, no persisted forwarding, forwarding off.
  await Promise.all(
    TORS.map((tor) =>
      onHost(tor, `rm -f ${CONF} /etc/sysctl.d/90-tor-gateway.conf && sysctl -qw net.ipv4.ip_forward=0`),
    ),
  );
});

test.after.always('keepalived stopped on the tor hosts', async (t) => {
  try {
    if (lab) await stopKeepalived(lab, t);
    for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
  } finally {
    await releaseTorHosts?.();
  }
});

test.serial(
  'bad input is refused before any host is touched (exit 65); a long auth_pass is only a warning',
  async (t) => {
    const untouched = async () => {
      for (const tor of TORS) {
        t.is(await sha256(tor), 'absent', `${tor}: no keepalived.conf`);
        t.deepEqual(await keepalivedPids(tor), [], `${tor}: no keepalived`);
        t.is((await onHost(tor, 'sysctl -n net.ipv4.ip_forward')).trim(), '0', `${tor}: forwarding untouched`);
      }
    };
    const cases: [string, string, NodeJS.ProcessEnv, RegExp][] = [
      [
        'VIP outside its pod CIDR',
        inventoryCopy((inv) => {
          inv.all.children.windows.hosts.win2.pod_gateway = '198.19.13.1';
        }),
        ENV,
        /task 'config' for host tor1: .*node win2: VIP 198\.19\.13\.1 is outside the node's pod CIDR 198\.19\.12\.0\/24/,
      ],
      [
        'two nodes with the same pod CIDR',
        inventoryCopy((inv) => {
          inv.all.children.windows.hosts.win2 = { pod_cidr: '198.19.11.0/24' };
        }),
        ENV,
        /nodes win1 and win2 have the same pod CIDR 198\.19\.11\.0\/24/,
      ],
      [
        'virtual_router_id 300',
        inventoryCopy((inv) => {
          inv.all.children.tor.vars.vrrp_virtual_router_id = 300;
        }),
        ENV,
        /vrrp_virtual_router_id of tor1 \(keepalived's virtual_router_id\) must be an integer 1-255, got 300/,
      ],
      [
        'VRRP_AUTH_PASS unset',
        inventory,
        { VRRP_AUTH_PASS: '' },
        /host tor1: vrrp_auth_pass needs environment variable VRRP_AUTH_PASS, which is empty: export it or put it in \.env/,
      ],
    ];
    for (const [what, inv, env, message] of cases) {
      const r = await torGateway([], env, inv);
      t.is(r.code, 65, `${what}: ${r.stdout}${r.stderr}`);
      t.regex(r.stderr, message, what);
      t.notRegex(r.stdout, /on \d+ hosts?/, `${what}: the run never started`);
    }
    const long = await torGateway(['--check'], { VRRP_AUTH_PASS: 'abcdefgh1234' });
    t.is(long.code, 2, long.stderr);
    t.regex(
      long.stdout,
      /warning: .*authPass \(from env:VRRP_AUTH_PASS\) is 12 characters; keepalived uses only the first 8/,
    );
    t.false(long.stdout.includes('abcdefgh'), 'the password is not in the plan');
    await untouched();
  },
);

test.serial(
  'apply: forwarding on, keepalived configured and running on each tor host, each VIP held by exactly one',
  async (t) => {
    const r = await torGateway(['--json']);
    t.is(r.code, 0, r.stderr);
    t.deepEqual(r.report.summary, { ok: 0, changed: 3, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 });
    for (const [i, tor] of TORS.entries()) {
      const s = steps(r.report, tor);
      t.deepEqual(Object.keys(s), ['forwarding', 'package', 'config', 'restart', 'service']);
      t.like(s.forwarding, { status: 'changed' });
      t.like(s.package, { status: 'ok' }, 'keepalived is installed on the lab machine');
      t.like(s.config, { status: 'changed', action: 'create' });
      t.like(s.restart, { status: 'changed' }, 'the new config starts keepalived');
      t.like(s.service, { status: 'ok' }, 'already running');
      t.is(
        await onHost(tor, 'sysctl -n net.ipv4.ip_forward; cat /etc/sysctl.d/90-tor-gateway.conf'),
        '1\nnet.ipv4.ip_forward = 1\n',
      );
      const text = await onHost(tor, `cat ${CONF}; stat -c '%a %U' ${CONF}`);
      t.regex(text, new RegExp(`router_id ${tor}\\n`));
      t.regex(text, new RegExp(`priority ${150 - 10 * i}\\n`));
      t.regex(text, new RegExp(`unicast_src_ip ${lab.host(tor).address.replace(/\./g, '\\.')}\\n`));
      for (const other of TORS.filter((x) => x !== tor))
        t.true(text.includes(`        ${lab.host(other).address}\n`), `${tor} peers with ${other}`);
      t.true(
        text.includes('198.19.11.1/24 dev eth1 label eth1:1\n') &&
          text.includes('198.19.12.1/24 dev eth1 label eth1:2\n'),
      );
      t.true(text.includes('auth_pass lab-vrrp\n'));
      t.true(text.endsWith('640 root\n'));
      t.is(
        (await keepalivedPids(tor)).includes(mainPid(tor)),
        true,
        `${tor}: the pidfile names a live keepalived of its namespace`,
      );
    }
    const { value: holder, ms } = await waitFor('each VIP on exactly one tor host', singleHolder, VRRP_SETTLE_MS);
    t.log(`first election: ${holder} holds ${VIPS.join(', ')} ${ms} ms after the run`);
  },
);

test.serial('a second run changes nothing (exit 0, 0 changed)', async (t) => {
  const r = await torGateway(['--json']);
  t.is(r.code, 0, r.stderr);
  t.deepEqual(r.report.summary, { ok: 3, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 });
  for (const tor of TORS)
    t.like(steps(r.report, tor).restart, { status: 'skipped', error: 'not triggered: config did not change' });
});

test.serial(
  "--check after a hand edit on one host: that host's config, with the changed lines, exit 2, the file untouched",
  async (t) => {
    const tor = 'tor3';
    await onHost(tor, `cp -p ${CONF} ${CONF}.e2e-backup && sed -i 's/^    priority 130$/    priority 99/' ${CONF}`);
    try {
      const before = await sha256(tor);
      const r = await torGateway(['--check', '--diff', '--json']);
      t.is(r.code, 2, r.stderr);
      t.is(await sha256(tor), before, 'check mode left the file as it was');
      t.deepEqual(r.report.summary, { ok: 2, changed: 1, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 });
      t.is(r.report.hosts.tor3.status, 'changed');
      const s = steps(r.report, tor);
      t.like(s.config, { status: 'changed', action: 'update', fields: ['content'] });
      t.deepEqual(
        s.config!.textDiff!.split('\n').filter((l) => /^[-+][^-+]/.test(l)),
        ['-    priority 99', '+    priority 130'],
      );
      // The config task is the only drift; the restart it triggers is named, not planned as a change.
      t.like(s.restart, {
        status: 'skipped',
        error: 'would run: triggered by config (check mode does not run triggered tasks)',
      });
      for (const task of ['forwarding', 'package', 'service']) t.is(s[task]!.status, 'ok', task);
      for (const other of ['tor1', 'tor2'])
        t.true(
          r.report.hosts[other].steps.every((x: any) => x.status === 'ok' || x.status === 'skipped'),
          other,
        );
      // The text view shows the same lines.
      const text = await torGateway(['--check', '--diff']);
      t.is(text.code, 2);
      t.regex(
        unstamped(text.stdout),
        /\[tor3\] config: keepalived\.conf \/etc\/keepalived\/keepalived\.conf update content\n(.*\n)*\s+- {4}priority 99\n\s+\+ {4}priority 130\n/,
      );
    } finally {
      await onHost(tor, `mv ${CONF}.e2e-backup ${CONF}`);
    }
  },
);

test.serial(
  'a crashed holder: another tor host holds the VIPs within 5 s; a run brings it back, one holder each after',
  async (t) => {
    const times: number[] = [];
    for (let round = 1; round <= 2; round++) {
      const { value: holder } = await waitFor('a single holder', singleHolder, VRRP_SETTLE_MS);
      // A crash: every keepalived process of the holder (VRRP child first, then the parent), SIGKILL.
      const pids = await keepalivedPids(holder);
      t.true(pids.length >= 2 && pids.includes(mainPid(holder)), `${holder}: parent and child ${pids.join(' ')}`);
      const killedAt = Date.now();
      for (const pid of [...pids].reverse()) process.kill(pid, 'SIGKILL');
      const { value: next, ms } = await waitFor(
        `another tor host holding the VIPs after ${holder} crashed`,
        async () => {
          const h = await holders();
          const others = TORS.filter((tor) => tor !== holder && VIPS.every((v) => h[v]!.includes(tor)));
          return others.length === 1 ? others[0]! : false;
        },
        FAILOVER_MS + 5_000,
      );
      const failover = Date.now() - killedAt;
      times.push(failover);
      t.true(failover < FAILOVER_MS, `failover took ${failover} ms`);
      const stale = (await holders())[VIPS[0]!]!.includes(holder);
      t.log(
        `round ${round}: ${holder} crashed, ${next} holds the VIPs after ${failover} ms (seen by polling ${ms} ms)${stale ? `; ${holder} still has them (a crashed keepalived leaves its VIPs)` : ''}`,
      );

      const r = await torGateway(['--json']);
      t.is(r.code, 0, r.stderr);
      t.deepEqual(r.report.summary, { ok: 2, changed: 1, failed: 0, skipped: 0, unreachable: 0, interrupted: 0 });
      t.like(steps(r.report, holder).service, { status: 'changed', action: 'update', fields: ['state'] });
      t.like(steps(r.report, holder).restart, { status: 'skipped' });
      t.deepEqual((await keepalivedPids(holder)).includes(mainPid(holder)), true, `${holder}: keepalived is back`);
      const { value: after, ms: settle } = await waitFor(
        'each VIP on exactly one tor host after the restart',
        singleHolder,
        VRRP_SETTLE_MS,
      );
      t.is(after, next, 'nopreempt: the restarted host stays backup');
      t.log(`round ${round}: ${holder} back; ${after} the only holder ${settle} ms after the run`);
    }
    t.log(`failover times: ${times.map((ms) => `${ms} ms`).join(', ')}`);
  },
);

test.serial(
  'a config keepalived rejects fails the step with its message; the old config and the daemon stay',
  async (t) => {
    const before = await Promise.all(TORS.map(async (tor) => [await sha256(tor), mainPid(tor)] as const));
    const r = await torGateway(['--json', '-e', 'vrrp_interface=eth9']);
    t.is(r.code, 3, r.stderr);
    t.deepEqual(r.report.summary, { ok: 0, changed: 0, failed: 3, skipped: 0, unreachable: 0, interrupted: 0 });
    for (const [i, tor] of TORS.entries()) {
      const s = steps(r.report, tor);
      t.is(s.config!.status, 'failed');
      t.regex(s.config!.error!, /interface eth9 for vrrp_instance VI_PLAY_LAB_WIN_GATE doesn't exist/);
      t.regex(
        s.config!.error!,
        /keepalived -t rejected the new configuration; \/etc\/keepalived\/keepalived\.conf is unchanged \(exit 5\)/,
      );
      t.like(s.restart, { status: 'skipped', error: `needs config on ${tor}, which failed` });
      t.like(s.service, { status: 'skipped' });
      t.is(await sha256(tor), before[i]![0], `${tor}: the old config`);
      t.is(mainPid(tor), before[i]![1], `${tor}: the same daemon`);
      t.true((await keepalivedPids(tor)).includes(before[i]![1]), `${tor}: still running`);
    }
    t.truthy(await singleHolder(), 'the VIPs still have one holder');
  },
);

test.serial(
  "per Windows node, delegated to the tor hosts: one node's run keeps the others' VIPs; nodes on one host run in turn",
  async (t) => {
    const withNodes = (n: number) =>
      inventoryCopy((inv) => {
        for (let i = 3; i <= n; i++) inv.all.children.windows.hosts[`win${i}`] = { pod_cidr: `198.19.${10 + i}.0/24` };
      });
    const perNode = (inv: string, args: string[] = []) =>
      play([fixture('tor-config-per-node'), '-i', inv, '--json', ...args], ENV);
    const vipLines = async (tor: string) =>
      (await onHost(tor, `grep -o '198\\.19\\.[0-9]*\\.1/24' ${CONF}`)).trim().split('\n');

    // A run for win3 only writes every node's VIP: win1's and win2's are not dropped.
    const one = await perNode(withNodes(3), ['-l', 'win3']);
    t.is(one.code, 0, one.stderr);
    const r1 = JSON.parse(one.stdout);
    for (const tor of TORS) {
      t.deepEqual(
        r1.hosts[tor].steps.map((s: any) => [s.target, s.status]),
        [['win3', 'changed']],
      );
      t.deepEqual(await vipLines(tor), ['198.19.11.1/24', '198.19.12.1/24', '198.19.13.1/24']);
    }
    // Four nodes at once, each with its own step on each tor host: they run one after the other, so
    // the first writes the whole set and the others find it written (no race, no lost update).
    const all = await perNode(withNodes(4));
    t.is(all.code, 0, all.stderr);
    const r2 = JSON.parse(all.stdout);
    for (const tor of TORS) {
      const statuses = r2.hosts[tor].steps.map((s: any) => s.status);
      t.is(statuses.length, 4);
      t.deepEqual(statuses.filter((s: string) => s === 'changed').length, 1, `${tor}: ${statuses.join(' ')}`);
      t.deepEqual(await vipLines(tor), ['198.19.11.1/24', '198.19.12.1/24', '198.19.13.1/24', '198.19.14.1/24']);
    }
  },
);
