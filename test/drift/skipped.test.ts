// Why `play drift` leaves a playbook out (runner/drift/skipped.ts), with the shipped playbooks and
// real inventory files: a group it reads from that is missing, hosts absent from the inventory, or
// a --limit that selects none of them. Compared whole.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { compileGraph } from '../../runner/playbook/compile.js';
import { loadInventory } from '../../runner/inventory/load.js';
import { loadPlaybook, resolvePlaybook } from '../../runner/playbook/load.js';
import { skippedPlaybook } from '../../runner/drift/skipped.js';

const dir = mkdtempSync(join(tmpdir(), 'play-skipped-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

function inventory(name: string, yaml: string) {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, yaml);
  return loadInventory(file);
}

const WINDOWS_AND_TOR = `all:
  children:
    windows:
      hosts:
        node009: { ansible_host: 198.18.1.9, os: windows }
    tor:
      hosts:
        tor1: { ansible_host: 198.18.0.11 }
`;
const LINUX_ONLY = `all:
  children:
    linux:
      hosts:
        linux1: { ansible_host: 198.18.0.101 }
`;

/** What compiling says, then the reason drift gives: the reason is read from the inventory, not the error. */
async function reason(playbook: string, inv: ReturnType<typeof inventory>, limit?: string) {
  const pb = await loadPlaybook(resolvePlaybook(playbook));
  let error: unknown;
  try {
    compileGraph(pb, inv, { limit });
  } catch (e) {
    error = e;
  }
  return skippedPlaybook(pb, inv, limit, error);
}

test('each way a playbook has nothing to check names the group or the --limit and what to do', async (t) => {
  const withoutControl = inventory('no-control', WINDOWS_AND_TOR);
  const linux = inventory('linux', LINUX_ONLY);
  t.deepEqual(
    [
      await reason('onboard-windows', withoutControl),
      await reason('onboard-windows', linux),
      await reason('tor-gateway', linux),
      await reason('tor-gateway', withoutControl, 'node009'),
    ],
    [
      {
        playbook: 'onboard-windows',
        reason:
          "no host in group control (task 'dnsIp' runs there: the kube-dns service IP, read on a master); add one to the inventory",
      },
      { playbook: 'onboard-windows', reason: 'no host in group windows of this inventory' },
      { playbook: 'tor-gateway', reason: 'no host in group tor of this inventory' },
      { playbook: 'tor-gateway', reason: "--limit 'node009' selects no host in group tor" },
    ],
  );
});
