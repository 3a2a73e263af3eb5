// uploadedFile (tasks/windows/uploaded-file.ts) against the simulated Windows node (lab/windows/, in
// process, running our PowerShell): the three runs, a file bigger than one piece arriving whole, a host
// that already has the file not sent it again, an upload cut short starting over, bad options; and
// the hotfix step's localMsu, which uploads only for a node that needs the update.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { readFile, writeFile } from '../../../lab/windows/file-store.js';
import { hotfix } from '../../../tasks/windows/hotfix.js';
import { UPLOAD_CHUNK, uploadedFile } from '../../../tasks/windows/uploaded-file.js';
import { simulatedNode } from './sim-node.js';
import { plan, threeRuns } from './step-runs.js';

const DEST = 'C:\\Users\\Administrator\\Downloads\\windows10.0-kb4551853-x64.msu';

function localFile(t: ExecutionContext, bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-upload-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'update.msu');
  writeFileSync(file, bytes);
  return file;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

test('a file of two and a half pieces: planned, sent piece by piece, checked, then a noop', async (t) => {
  const bytes = Buffer.alloc(UPLOAD_CHUNK * 2 + UPLOAD_CHUNK / 2, 7);
  bytes.write('MSCF', 0);
  const { node, n } = simulatedNode(t);
  const path = 'C:\\k\\updates\\big.msu';
  const step = uploadedFile({ localFile: localFile(t, bytes), path });
  const r = await threeRuns(n, step);
  t.deepEqual(r.first, {
    action: 'create',
    fields: ['sha256'],
    before: { sha256: null },
    after: { sha256: `${bytes.length} bytes, sha256 ${sha(bytes).slice(0, 12)}` },
  });
  t.deepEqual(r.applyCalls, ['Add-PlayFileChunk', 'Add-PlayFileChunk', 'Add-PlayFileChunk', 'Complete-PlayUpload']);
  t.deepEqual(r.outputs, { uploaded: true });
  t.true(readFile(node.state, path)!.equals(bytes));
  t.is(readFile(node.state, `${path}.play-upload`), null, 'the temp file took the destination place');
  t.true(
    n.calls.every((c) => c.fn !== 'Get-PlayFile' || (c.args as { maxBytes: number }).maxBytes === 0),
    'the probe brings no content back',
  );
});

test('a host that already has the same file is not sent it; a different one is replaced', async (t) => {
  const bytes = Buffer.from('MSCF simulated update package KB4551853\n');
  const file = localFile(t, bytes);
  const same = simulatedNode(t, (s) => writeFile(s, DEST, bytes));
  t.is((await plan(same.n, uploadedFile({ localFile: file, path: DEST }))).change.action, 'noop');

  const other = simulatedNode(t, (s) => writeFile(s, DEST, Buffer.from('an older download')));
  const r = await threeRuns(other.n, uploadedFile({ localFile: file, path: DEST }));
  t.is(r.first.action, 'update');
  t.true(readFile(other.node.state, DEST)!.equals(bytes));
});

test('an upload cut short leaves a temp file; the next apply starts over from the first piece', async (t) => {
  const bytes = Buffer.alloc(UPLOAD_CHUNK + 10, 1);
  // What a run killed after its first piece left: the temp file holds one piece.
  const { node, n } = simulatedNode(t, (s) => writeFile(s, `${DEST}.play-upload`, bytes.subarray(0, UPLOAD_CHUNK)));
  await threeRuns(n, uploadedFile({ localFile: localFile(t, bytes), path: DEST }));
  t.true(readFile(node.state, DEST)!.equals(bytes));
});

test('options: a missing local file, a directory, a relative Windows path', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-upload-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  t.throws(() => uploadedFile({ localFile: join(dir, 'none.msu'), path: DEST }), {
    message: `windows.uploadedFile: option 'localFile' cannot read ${join(dir, 'none.msu')} (ENOENT)`,
  });
  t.throws(() => uploadedFile({ localFile: dir, path: DEST }), {
    message: `windows.uploadedFile: option 'localFile' ${dir} is not a file`,
  });
  writeFileSync(join(dir, 'a.msu'), 'x');
  t.throws(() => uploadedFile({ localFile: join(dir, 'a.msu'), path: 'a.msu' }), { message: /option 'path'/ });
});

test('hotfix with localMsu: the .msu is uploaded, then installed; a node that has the update is sent nothing', async (t) => {
  const msu = Buffer.from('MSCF simulated update package KB4551853\n');
  const local = localFile(t, msu);
  const path = 'C:\\k\\windows10.0-kb4551853-x64.msu';
  const { node, n } = simulatedNode(t);
  const step = hotfix({ kb: 'KB4551853', msuPath: path, localMsu: local });
  const r = await threeRuns(n, step);
  t.deepEqual(r.first.warnings, undefined, 'no "not on the host" warning: it will be uploaded');
  t.deepEqual(r.applyCalls, [
    'Get-PlayFile',
    'Add-PlayFileChunk',
    'Complete-PlayUpload',
    'Test-PlayPath',
    'Install-PlayHotfix',
  ]);
  t.true(readFile(node.state, path)!.equals(msu));

  const done = simulatedNode(t, (s) => s.hotfixes.push({ kb: 'KB4551853', installedOn: '2020-05-12' }));
  t.is((await plan(done.n, hotfix({ kb: 'KB4551853', msuPath: path, localMsu: local }))).change.action, 'noop');
  t.is(readFile(done.node.state, path), null, 'never uploaded');
});

test('hotfix with localMsu already on the host: not sent again', async (t) => {
  const msu = Buffer.from('MSCF simulated update package KB4551853\n');
  const path = 'C:\\Users\\Administrator\\Downloads\\windows10.0-kb4551853-x64.msu';
  const { n } = simulatedNode(t, (s) => writeFile(s, path, msu));
  const r = await threeRuns(n, hotfix({ kb: 'KB4551853', msuPath: path, localMsu: localFile(t, msu) }));
  t.deepEqual(r.applyCalls, ['Get-PlayFile', 'Test-PlayPath', 'Install-PlayHotfix']);
});
