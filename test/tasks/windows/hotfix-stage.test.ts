// hotfixStage (tasks/windows/hotfix-stage.ts) against the simulated Windows node (lab/windows/, a TEST
// DOUBLE running our real PowerShell): the three runs over SSH through the real runner, the refusals
// (too little free disk, a package DISM says does not apply, an installed KB), a folder staged from
// another .msu staged again, and the hotfix step in the window finding the staged .msu: no upload.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { fileExists, readFile, writeFile } from '../../../lab/windows/file-store.js';
import { hotfix } from '../../../tasks/windows/hotfix.js';
import { hotfixStage } from '../../../tasks/windows/hotfix-stage.js';
import { startWindowsNode, threeRuns as threeRunsOverSsh } from '../../helpers/simulated-windows-node.js';
import { simulatedNode } from './sim-node.js';
import { plan, threeRuns } from './step-runs.js';

const KB = 'KB4551853';
const MSU = 'C:\\k\\updates\\windows10.0-kb4551853-x64.msu';
const STAGE = 'C:\\k\\updates\\play-stage-KB4551853';
const CAB = `${STAGE}\\Windows10.0-KB4551853-x64.cab`;
const BYTES = Buffer.from('MSCF simulated update package KB4551853\n'.repeat(1000));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function localMsu(t: ExecutionContext, bytes = BYTES): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-stage-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'windows10.0-kb4551853-x64.msu');
  writeFileSync(file, bytes);
  return file;
}

test('three runs over SSH: check plans the upload and the staging, apply stages, the next run is a noop', async (t) => {
  const node = await startWindowsNode(t);
  const local = localMsu(t);
  const r = await threeRunsOverSsh(t, node, () => hotfixStage({ kb: KB, msuPath: MSU, localMsu: local }));
  t.deepEqual(
    { action: r.check.action, fields: r.check.fields, before: r.check.before, after: r.check.after },
    {
      action: 'create',
      fields: ['msu', 'staged'],
      before: { msu: null, staged: null },
      after: { msu: `${BYTES.length} bytes, sha256 ${sha(BYTES).slice(0, 12)}`, staged: `${STAGE}, verified by DISM` },
    },
  );
  t.true(readFile(node.state, MSU)!.equals(BYTES), 'the .msu arrived whole');
  t.true(fileExists(node.state, CAB), 'expanded into the staging folder');
  t.is(readFile(node.state, `${STAGE}\\play-staged-from.sha256`)!.toString(), sha(BYTES));
  t.deepEqual(node.state.hotfixes.map((h) => h.kb).includes(KB), false, 'staging installs nothing');
  t.deepEqual(node.state.pending, [], 'and leaves no reboot pending');
});

test('the window: the hotfix step finds the staged .msu (same SHA-256) and uploads nothing', async (t) => {
  const local = localMsu(t);
  const { node, n } = simulatedNode(t);
  await threeRuns(n, hotfixStage({ kb: KB, msuPath: MSU, localMsu: local }));
  const r = await threeRuns(n, hotfix({ kb: KB, msuPath: MSU, localMsu: local }));
  t.deepEqual(r.applyCalls, ['Get-PlayFile', 'Test-PlayPath', 'Install-PlayHotfix'], 'no Add-PlayFileChunk');
  t.is(node.state.pending.length, 1, 'installed, pending its reboot');
});

test('the .msu already on the host (no localMsu): only expanded and verified', async (t) => {
  const path = 'C:\\Users\\Administrator\\Downloads\\windows10.0-kb4551853-x64.msu';
  const { n } = simulatedNode(t);
  const r = await threeRuns(n, hotfixStage({ kb: KB, msuPath: path }));
  t.deepEqual([r.first.action, r.first.fields], ['create', ['staged']]);
  t.deepEqual(r.applyCalls, ['Expand-PlayHotfixStage']);
  t.deepEqual(r.outputs, { uploaded: false });
});

test('a folder staged from another .msu is staged again; a missing .msu fails with the path', async (t) => {
  const local = localMsu(t);
  const { n } = simulatedNode(t, (s) => {
    writeFile(s, MSU, Buffer.from('an older download'));
    writeFile(s, CAB, Buffer.from('stale'));
    writeFile(s, `${STAGE}\\play-staged-from.sha256`, Buffer.from(sha(Buffer.from('an older download'))));
  });
  const r = await threeRuns(n, hotfixStage({ kb: KB, msuPath: MSU, localMsu: local }));
  t.deepEqual([r.first.action, r.first.fields], ['update', ['msu', 'staged']]);

  const bare = simulatedNode(t);
  const step = hotfixStage({ kb: KB, msuPath: 'C:\\k\\none\\windows10.0-kb4551853-x64.msu' });
  const p = await plan(bare.n, step);
  t.deepEqual(p.change.warnings, [
    'the update package C:\\k\\none\\windows10.0-kb4551853-x64.msu is not on the host: apply will fail (copy it there first)',
  ]);
  await t.throwsAsync(step.apply(bare.n, p.change, p.actual, step.desired), {
    message:
      'stage hotfix KB4551853: the update package C:\\k\\none\\windows10.0-kb4551853-x64.msu is not on the host: copy it there first',
  });
});

test('too little free disk: the plan warns, apply refuses before sending a byte', async (t) => {
  const local = localMsu(t);
  // 2.5 times the .msu's size free: under the 3x staging needs.
  const { node, n } = simulatedNode(t, (s) => {
    s.freeDiskBytes = Math.floor(BYTES.length * 2.5);
  });
  const step = hotfixStage({ kb: KB, msuPath: MSU, localMsu: local });
  const p = await plan(n, step);
  const refusal =
    "not enough free disk on C: to stage KB4551853: 98 KiB free, needs 3x the .msu's 39 KiB (117 KiB: the .msu, " +
    "its expanded CAB and DISM's work); free space on the host, or point hotfix_msu at a volume with room";
  t.deepEqual(p.change.warnings, [`apply will refuse: ${refusal}`]);
  const mark = n.calls.length;
  await t.throwsAsync(step.apply(n, p.change, p.actual, step.desired), {
    message: `stage hotfix KB4551853: ${refusal}`,
  });
  t.deepEqual(n.namesSince(mark), [], 'nothing was sent');
  t.is(readFile(node.state, MSU), null);
});

test('a package DISM says does not apply (superseded) fails staging, each time, saying so', async (t) => {
  // KB4549949 brings 1158; a node already at 1217 has it superseded.
  const path =
    'C:\\Users\\Administrator\\Downloads\\windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu';
  const { n } = simulatedNode(t, (s) => {
    s.os.revision = 1217;
  });
  const step = hotfixStage({ kb: 'KB4549949', msuPath: path });
  const message =
    'stage hotfix KB4549949: DISM says KB4549949 is not applicable to this host (Applicable : No, State : Not Present): ' +
    'usually a newer update superseded it; the install in the window would fail with 0x800F081E (pin a build whose KB applies)';
  for (const _ of [1, 2]) {
    const p = await plan(n, step);
    t.deepEqual(p.change.fields, ['staged']);
    await t.throwsAsync(step.apply(n, p.change, p.actual, step.desired), { message });
  }
  t.deepEqual((await plan(n, step)).change.warnings, [
    'DISM says KB4549949 is not applicable to this host (usually superseded by a newer update)',
  ]);
});

test('an installed KB needs no staging: a noop that says why, and nothing is uploaded', async (t) => {
  const local = localMsu(t);
  const { node, n } = simulatedNode(t, (s) => s.hotfixes.push({ kb: KB, installedOn: '2020-05-12' }));
  const p = await plan(n, hotfixStage({ kb: KB, msuPath: MSU, localMsu: local }));
  t.deepEqual(p.change, {
    action: 'noop',
    fields: [],
    before: null,
    after: null,
    warnings: [`${KB} is installed: nothing to stage`],
  });
  t.is(readFile(node.state, MSU), null);
});

test('options: a bad KB, a path that is not an .msu, a relative stage folder', (t) => {
  t.throws(() => hotfixStage({ kb: 'KB12', msuPath: MSU }), { message: /option 'kb' must be a KB number/ });
  t.throws(() => hotfixStage({ kb: KB, msuPath: 'C:\\k\\x.cab' }), { message: /option 'msuPath' must name an \.msu/ });
  t.throws(() => hotfixStage({ kb: KB, msuPath: MSU, stageDir: 'stage' }), { message: /option 'stageDir'/ });
  t.is(hotfixStage({ kb: 'kb4551853', msuPath: MSU }).desired.stageDir, STAGE);
});
