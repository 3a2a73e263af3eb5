// A schedule's inventory (runner/cli/drift-inventory.ts) is loaded again only when something it read
// changed: its group_vars, a host_vars file added, the user's ssh_config. The same object otherwise;
// and never reused while a file it read is too new for its timestamp to vouch for it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { driftInventory } from '../../runner/cli/drift-inventory.js';
import { nowNs } from '../../runner/core/input-snapshot.js';

const base = mkdtempSync(join(tmpdir(), 'play-drift-inventory-'));
// Not this machine's lab, nor the user's ssh_config: a lab going up beside the tests is not an input here.
process.env.PLAY_LAB_DIR = join(base, 'lab');
process.env.HOME = join(base, 'home');
test.after.always(() => rmSync(base, { recursive: true, force: true }));

const err = new Writable({ write: (_chunk, _enc, done) => done() });

function inventoryDir(name: string): string {
  const dir = join(base, name);
  mkdirSync(join(dir, 'group_vars'), { recursive: true });
  writeFileSync(join(dir, 'inventory.yaml'), 'all:\n  hosts:\n    h1:\n      ansible_host: 10.0.0.1\n');
  writeFileSync(join(dir, 'group_vars', 'all.yml'), 'ansible_user: alice\n');
  return dir;
}

test('reused while nothing it read changed; loaded again when group_vars, host_vars or ssh_config do', (t) => {
  const dir = inventoryDir('a');
  // Its loads begin well after the files were written, as a schedule's later ticks do.
  const opener = driftInventory(join(dir, 'inventory.yaml'), undefined, undefined, () => nowNs() + 10_000_000_000n);
  const h1 = (o: ReturnType<typeof opener.open>) => o.inventory.host('h1')!.connection;
  const first = opener.open(err);
  t.is(opener.open(err), first, 'nothing changed: the same inventory');
  writeFileSync(join(dir, 'group_vars', 'all.yml'), 'ansible_user: bob\n');
  const edited = opener.open(err);
  t.not(edited, first);
  t.is(h1(edited).user, 'bob');
  t.is(opener.open(err), edited);
  mkdirSync(join(dir, 'host_vars'));
  writeFileSync(join(dir, 'host_vars', 'h1.yml'), 'ansible_port: 2200\n');
  const added = opener.open(err);
  t.is(h1(added).port, 2200);
  mkdirSync(join(base, 'home', '.ssh'), { recursive: true });
  writeFileSync(join(base, 'home', '.ssh', 'config'), 'Host 10.0.0.1\n  HostName 10.9.9.9\n', { mode: 0o600 });
  const ssh = opener.open(err);
  t.is(h1(ssh).address, '10.9.9.9');
  t.is(opener.open(err), ssh);
});

test('a file written just before the load is read again at the next', (t) => {
  const dir = inventoryDir('b');
  const opener = driftInventory(join(dir, 'inventory.yaml'));
  const first = opener.open(err);
  t.not(opener.open(err), first);
});
