// `play lab up|down` when the lab fails: the command passes the lab's LabFailure to main.ts's reporting,
// which prints it as the one message with exit 71 and no trace. The lab here is a stand-in whose up and
// down fail the way lab/up.ts and lab/down.ts do (through withLabFailure); the real lab is not touched.
import test from 'ava';
import { PassThrough } from 'node:stream';
import { inPart, labParts, withLabFailure } from '../../lab/lab-failure.js';
import { labCommand } from '../../runner/cli/lab-command.js';
import type { LabModule } from '../../runner/cli/lab-location.js';
import { reportError } from '../../runner/cli/main.js';

const DIR = '/var/lib/play-lab';

/** A lab whose up fails in linux3's sshd and whose down fails outside every part. */
const brokenLab: LabModule = {
  labUp: () =>
    withLabFailure('up', DIR, () =>
      inPart(labParts.sshd(DIR, 'linux3'), () => Promise.reject(new Error('linux3: sshd did not start: exit 255'))),
    ),
  labDown: () => withLabFailure('down', DIR, () => Promise.reject(new RangeError('Invalid array length'))),
  labInventoryPath: () => `${DIR}/inventory.yaml`,
  labStatus: () => Promise.resolve({ up: false, dir: DIR, inventoryPath: null, hosts: [] }),
};

/** The command as main.ts runs it: its code, or the error main.ts reports. */
async function lab(action: string): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  let code: number;
  try {
    code = await labCommand(action, {}, out, () => Promise.resolve(brokenLab));
  } catch (e) {
    code = reportError(e, err);
  }
  return { code, out: String(out.read() ?? ''), err: String(err.read() ?? '') };
}

test('play lab up that fails in a host sshd: one message naming it, its log and the fix, exit 71', async (t) => {
  t.deepEqual(await lab('up'), {
    code: 71,
    out: '',
    err: [
      'play: lab up failed: the sshd of linux3: sshd did not start: exit 255',
      `  log: ${DIR}/hosts/linux3/sshd.log`,
      '  to fix: run `play lab down`, then `play lab up`',
      '',
    ].join('\n'),
  });
});

test('play lab down that fails in an unknown way: still the one message, not an internal error', async (t) => {
  t.deepEqual(await lab('down'), {
    code: 71,
    out: '',
    err: [
      'play: lab down failed: the lab: Invalid array length',
      `  logs: ${DIR}/hosts/HOST/sshd.log, ${DIR}/hosts/HOST/simulator.log, ${DIR}/cluster-api/server.log`,
      '  to fix: run `play lab down` again (it removes only what is left); if it fails the same way, remove what it names by hand',
      '',
    ].join('\n'),
  });
});
