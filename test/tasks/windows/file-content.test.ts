// fileContent (tasks/windows/file-content.ts) with large and non-ASCII content, against the simulated
// Windows node (lab/windows/, in process, our PowerShell under real PowerShell with Windows PowerShell
// 5.1's ConvertFrom-Json limit): content over one piece goes in pieces as uploads do, and would be
// refused in one call; text in any encoding arrives byte for byte.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { readFile, writeFile } from '../../../lab/windows/file-store.js';
import { callNode } from '../../../lab/windows/powershell/call.js';
import { call } from '../../../tasks/windows/remote/calls.js';
import { SET_FILE } from '../../../tasks/windows/remote/ps-files.js';
import { fileContent } from '../../../tasks/windows/file-content.js';
import { UPLOAD_CHUNK } from '../../../tasks/windows/send-pieces.js';
import { simulatedNode } from './sim-node.js';
import { plan, threeRuns } from './step-runs.js';

const PATH = 'C:\\k\\big\\kubeconfig.yaml';

/** 3 MiB of text: lines of YAML-ish ASCII and Chinese (multi-byte UTF-8). */
function bigText(): string {
  const line = '    certificate-authority-data: 节点证书 LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t\r\n';
  const text = line.repeat(Math.ceil((3 * 1024 * 1024) / Buffer.byteLength(line)));
  return text.slice(0, 3 * 1024 * 1024 - 10);
}

test('a 3 MiB fileContent is sent in pieces, arrives byte for byte, and the next run changes nothing', async (t) => {
  const text = bigText();
  const bytes = Buffer.from(text, 'utf8');
  t.true(bytes.length > 3 * UPLOAD_CHUNK - 64 && bytes.length < 3 * UPLOAD_CHUNK + 64);
  const { node, n } = simulatedNode(t);
  const r = await threeRuns(n, fileContent({ path: PATH, content: text }));
  t.is(r.first.action, 'create');
  t.deepEqual(r.applyCalls, [
    'Add-PlayFileChunk',
    'Add-PlayFileChunk',
    'Add-PlayFileChunk',
    'Add-PlayFileChunk',
    'Complete-PlayUpload',
  ]);
  t.true(readFile(node.state, PATH)!.equals(bytes));
  t.is(readFile(node.state, `${PATH}.play-upload`), null);
  t.is((await plan(n, fileContent({ path: PATH, content: text }))).change.action, 'noop');
});

test("the same 3 MiB in one call is refused by Windows PowerShell 5.1's ConvertFrom-Json limit", async (t) => {
  const { node } = simulatedNode(t);
  const contentBase64 = Buffer.from(bigText(), 'utf8').toString('base64');
  t.true(contentBase64.length > 2_097_152);
  await t.throwsAsync(() => callNode(node, [call(SET_FILE, { path: PATH, contentBase64, expectedSha256: null })]), {
    message:
      'node009: PowerShell returned no JSON result: ConvertFrom-Json : Error during serialization or deserialization using the JSON JavaScriptSerializer. The length of the string exceeds the value set on the maxJsonLength property. Parameter name: input',
  });
  t.is(readFile(node.state, PATH), null, 'nothing was written');
});

test('in pieces, a file changed on the host since the plan is not overwritten', async (t) => {
  const { node, n } = simulatedNode(t, (s) => writeFile(s, PATH, Buffer.from('old\n')));
  const step = fileContent({ path: PATH, content: bigText() });
  const { actual, change } = await plan(n, step);
  writeFile(node.state, PATH, Buffer.from('edited by hand\n'));
  await t.throwsAsync(() => step.apply(n, change, actual, step.desired), {
    message: /Complete-PlayUpload failed .*kubeconfig\.yaml changed since it was probed .*: not overwritten/,
  });
  t.deepEqual(readFile(node.state, PATH), Buffer.from('edited by hand\n'));
  t.is(readFile(node.state, `${PATH}.play-upload`), null, 'the pieces are removed');
});

function localFile(t: ExecutionContext, bytes: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-content-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'f'), bytes);
  return join(dir, 'f');
}

test('non-ASCII text round-trips byte exact: UTF-8 without and with a BOM, and a UTF-16LE localFile', async (t) => {
  const chinese = '节点 node009 已加入集群\r\nkubelet: 运行中\n';
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(chinese, 'utf16le')]);
  const cases: [string, Parameters<typeof fileContent>[0], Buffer][] = [
    ['utf-8', { path: 'C:\\k\\a.txt', content: chinese }, Buffer.from(chinese, 'utf8')],
    ['utf-8 bom', { path: 'C:\\k\\b.txt', content: `\ufeff${chinese}` }, Buffer.from(`\ufeff${chinese}`, 'utf8')],
    ['utf-16le file', { path: 'C:\\k\\c.txt', localFile: localFile(t, utf16) }, utf16],
  ];
  for (const [name, options, bytes] of cases) {
    const { node, n } = simulatedNode(t);
    await threeRuns(n, fileContent(options));
    t.deepEqual(readFile(node.state, options.path), bytes, name);
  }
});
