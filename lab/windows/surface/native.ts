// Native programs as the host's Process shim starts them (op Native.Run): the program is found by its
// path as Windows would (system programs under C:\Windows\System32 always exist; any other must be a
// file in the model), then run by its simulation in lab/windows/native/. A program the node does not
// model is a simulator gap, said plainly.
import { WindowsError } from '../errors.js';
import { fileExists } from '../file-store.js';
import type { NativeProgram } from '../native/program.js';
import { dism } from '../native/dism.js';
import { docker } from '../native/docker.js';
import { expand } from '../native/expand.js';
import { netsh } from '../native/netsh.js';
import { nssm } from '../native/nssm.js';
import { shutdown } from '../native/shutdown.js';
import { wusa } from '../native/wusa.js';
import { sc } from '../native/sc.js';
import { w32tm } from '../native/w32tm.js';
import { type Ops, optStr, str, strs } from './types.js';

/** By lower-cased file name. Areas add theirs here. */
export const PROGRAMS: Record<string, NativeProgram> = {
  'sc.exe': sc,
  'nssm.exe': nssm,
  'netsh.exe': netsh,
  'w32tm.exe': w32tm,
  'docker.exe': docker,
  'shutdown.exe': shutdown,
  'wusa.exe': wusa,
  'expand.exe': expand,
  'dism.exe': dism,
};

const SYSTEM32 = /^c:\\windows\\system32\\[^\\]+$/i;

const base64 = (v: string | Buffer | undefined) =>
  (typeof v === 'string' ? Buffer.from(v, 'utf8') : (v ?? Buffer.alloc(0))).toString('base64');

export const nativeOps: Ops = {
  'Native.Run': (node, a) => {
    const file = str(a, 'file').replace(/\//g, '\\');
    const leaf = file.slice(file.lastIndexOf('\\') + 1).toLowerCase();
    const known = SYSTEM32.test(file) || fileExists(node.state, file);
    if (!known) throw new WindowsError('The system cannot find the file specified');
    const program = PROGRAMS[leaf];
    if (!program) throw new Error(`the simulated node does not model the program ${file} (lab/windows/native/)`);
    void optStr(a, 'stdin');
    const r = program(node, strs(a, 'argv'));
    return { code: r.code, stdoutBase64: base64(r.stdout), stderrBase64: base64(r.stderr) };
  },
};
