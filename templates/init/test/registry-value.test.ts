// The Windows step of this repository (playbooks/lib/registry-value.ts) three times on a real host:
// check reports the change and makes none, apply makes it, a second run changes nothing. It runs
// when you name a Windows host of the inventory:
//   PLAY_TEST_WINDOWS_HOST=win1 npm test     (PLAY_TEST_INVENTORY: another inventory than inventory/)
// The host's key must be in known_hosts (`ssh` to it once), as for `play`. It writes a test value under
// HKLM:\SOFTWARE\Example\PlayTest, a new one each time, so the check always has something to report.
import test from 'ava';
import { fileURLToPath } from 'node:url';
import { loadInventory, openRemote, threeRuns } from 'play';
import { registryValue } from '../playbooks/lib/registry-value.js';

const KEY = 'HKLM:\\SOFTWARE\\Example\\PlayTest';
const host = process.env.PLAY_TEST_WINDOWS_HOST;
const inventoryPath = process.env.PLAY_TEST_INVENTORY || fileURLToPath(new URL('../inventory', import.meta.url));

test('registry value: the step as play builds it, before any host', (t) => {
  const step = registryValue({ key: KEY, name: 'Mode', value: 'on' });
  t.like(step, { kind: 'example.registryValue', title: `registry value ${KEY}\\Mode` });
  t.throws(() => registryValue({ key: '', name: 'Mode', value: 'on' }), { message: /key/ });
});

if (host) {
  test(`registry value on ${host}: check reports the change, apply makes it, a second run changes nothing`, async (t) => {
    const { remote, close } = openRemote(loadInventory(inventoryPath), host);
    try {
      const value = `set by a test at ${new Date().toISOString()}`;
      const runs = await threeRuns(registryValue({ key: KEY, name: 'Mode', value }), remote);
      t.deepEqual(runs.check.after, { value });
      t.is(runs.again.action, 'noop');
    } finally {
      await close();
    }
  });
} else {
  test.todo('registry value on a Windows host: set PLAY_TEST_WINDOWS_HOST to one of the inventory (e.g. win1)');
}
