// group_vars/ in the lab, as a comparison: the onboarding inventory of the lab with the windows
// and tor groups' vars moved out into group_vars/windows.yml and group_vars/tor.yml gives the same
// hosts and vars (play inventory --list) and the same plans (tor-gateway and onboard-windows in check
// mode) as with the vars written inline. Check mode only: the applies read group_vars/ in
// onboard-acceptance.test.ts (windows.yml and tor.yml) and tor-gateway.test.ts (tor.yml).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import YAML from 'yaml';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { onboardInventory } from './fixtures/onboard-lab.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { writeWithGroupVars } from './fixtures/group-vars.js';

let lab: Lab;
let dir: string;
let inline: string;
let split: string;
let env: NodeJS.ProcessEnv;
let release: (() => Promise<void>) | undefined;

test.before(async () => {
  release = await holdTorHosts();
  lab = await ensureLab({ linux: 4, tor: 3, windows: 2, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-group-vars-'));
  ({ inventory: inline, env } = onboardInventory(lab, dir));
  // The same inventory with the two groups' vars in group_vars/ files beside it.
  split = join(dir, 'split', 'inventory.yaml');
  mkdirSync(dirname(split));
  writeWithGroupVars(split, YAML.parse(readFileSync(inline, 'utf8')), ['windows', 'tor']);
});

test.after.always(async () => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  await release?.();
});

test('play inventory --list: the same hosts, groups and vars either way', async (t) => {
  const [a, b] = await Promise.all([inline, split].map((i) => play(['inventory', '-i', i, '--list'], env)));
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  t.deepEqual(JSON.parse(b.stdout), JSON.parse(a.stdout));
  t.truthy(JSON.parse(b.stdout)._meta.hostvars.tor1.vrrp_interface, 'the tor vars came from group_vars/tor.yml');
});

const plan = (report: any) =>
  Object.fromEntries(
    Object.entries(report.hosts).map(([h, r]: [string, any]) => [
      h,
      r.steps.map(
        (s: any) => `${s.task}${s.target ? `@${s.target}` : ''} ${s.status} ${s.action ?? ''} ${s.fields.join(',')}`,
      ),
    ]),
  );

for (const args of [['tor-gateway'], ['onboard-windows', '--limit', 'node009']]) {
  test(`play ${args.join(' ')} --check: the same plan either way`, async (t) => {
    const x = await play([...args, '-i', inline, '--check', '--json'], env);
    const y = await play([...args, '-i', split, '--check', '--json'], env);
    t.is(y.code, x.code, y.stderr);
    t.deepEqual(plan(JSON.parse(y.stdout)), plan(JSON.parse(x.stdout)));
  });
}
