// `npm run bench:upload [-- --mb 300]`: what sending a large .msu from the controller costs the
// controller (tasks/windows/uploaded-file.ts): the time to hash it when the step is built, the time to
// send it, and the process's peak memory while doing both, against its memory before. The Windows
// host is a test double here (ReceivingHost: it takes the pieces as a node would, checks each offset,
// hashes what arrives and answers Complete-PlayUpload with that hash), so the numbers are the
// controller's alone; over SSH each piece is also a PowerShell program on the node.
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PsCall } from '../runner/core/ps-call.js';
import type { Script } from '../runner/core/quote.js';
import type { ExecResult, Remote } from '../runner/core/step.js';
import { UPLOAD_CHUNK, uploadedFile } from '../tasks/windows/uploaded-file.js';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '300' } } });
const mb = Number(values.mb);

let peakRss = 0;
let peakHeap = 0;
/** Sampled at every call: the calls come back at once (no timer would get a turn in between). */
function sampleMemory(): void {
  const m = process.memoryUsage();
  peakRss = Math.max(peakRss, m.rss);
  peakHeap = Math.max(peakHeap, m.heapUsed + m.external + m.arrayBuffers);
}

/** A TEST DOUBLE of the node's side of an upload: no disk, a running hash of what arrived. */
class ReceivingHost implements Remote {
  readonly name = 'node009';
  #size = 0;
  #hash = createHash('sha256');
  pieces = 0;

  async run(script: Script): Promise<ExecResult> {
    if (!(script instanceof PsCall)) throw new Error('the receiving double answers PowerShell calls only');
    sampleMemory();
    const a = script.args as Record<string, string | number>;
    switch (script.fn.name) {
      case 'Get-PlayFile':
        return { code: 0, stderr: '', stdout: 'null' };
      case 'Add-PlayFileChunk': {
        if (a.offset === 0) [this.#size, this.#hash] = [0, createHash('sha256')];
        if (a.offset !== this.#size)
          return { code: 1, stdout: '', stderr: `holds ${this.#size} bytes, not ${a.offset}` };
        const bytes = Buffer.from(String(a.contentBase64), 'base64');
        this.#hash.update(bytes);
        this.#size += bytes.length;
        this.pieces++;
        return { code: 0, stderr: '', stdout: JSON.stringify({ size: this.#size }) };
      }
      case 'Complete-PlayUpload':
        return { code: 0, stderr: '', stdout: JSON.stringify({ sha256: this.#hash.digest('hex') }) };
      default:
        throw new Error(`the receiving double does not answer ${script.fn.name}`);
    }
  }
}

const dir = mkdtempSync(join(tmpdir(), 'play-bench-upload-'));
try {
  const file = join(dir, 'windows10.0-kb4565349-x64.msu');
  const fd = openSync(file, 'w');
  for (let i = 0; i < mb; i++) writeSync(fd, randomBytes(1024 * 1024));
  closeSync(fd);
  const before = process.memoryUsage();
  sampleMemory();
  const t0 = performance.now();
  const step = uploadedFile({ localFile: file, path: 'C:\\k\\updates\\windows10.0-kb4565349-x64.msu' });
  const hashed = performance.now();
  sampleMemory();
  const host = new ReceivingHost();
  const change = step.diff(step.desired, null);
  await step.apply(host, change, null, step.desired);
  const sent = performance.now();
  sampleMemory();
  const MiB = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  console.log(
    `upload of a ${mb} MiB file in ${host.pieces} pieces of ${UPLOAD_CHUNK / 1024} KiB (node: a test double)`,
  );
  console.log(`  hash when the step is built  ${((hashed - t0) / 1000).toFixed(2)} s`);
  console.log(`  send (read, base64, call)    ${((sent - hashed) / 1000).toFixed(2)} s`);
  console.log(
    `  peak RSS                     ${MiB(peakRss)} (before: ${MiB(before.rss)}, +${MiB(peakRss - before.rss)})`,
  );
  console.log(
    `  peak heap + buffers          ${MiB(peakHeap)} (before: ${MiB(before.heapUsed + before.external + before.arrayBuffers)})`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
