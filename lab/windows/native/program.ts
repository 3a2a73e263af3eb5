// The shape of a native program on the simulated node (sc.exe, nssm.exe, ...): it gets the argv a
// C-runtime program would split from its command line (the host's Process shim splits it, so our
// quoting is tested for real) and answers with an exit code and its output, as bytes or as text.
import type { SimulatedWindowsNode } from '../model.js';

export interface NativeResult {
  code: number;
  stdout?: string | Buffer;
  stderr?: string | Buffer;
}

export type NativeProgram = (node: SimulatedWindowsNode, argv: readonly string[]) => NativeResult;

/** Text lines as a console program writes them: each ends in CRLF. */
export function crlf(lines: readonly string[]): string {
  return lines.map((l) => `${l}\r\n`).join('');
}
