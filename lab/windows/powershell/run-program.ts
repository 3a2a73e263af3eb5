// What powershell.exe does on the simulated Windows node with the command line and stdin that arrive
// over SSH: the real PowerShell engine (host.ts) decodes and runs the -EncodedCommand bootstrap,
// which reads the program on stdin, parses it and dispatches; the Windows surface beneath answers
// from the node's model. Errors on stderr are written as CLIXML, as powershell.exe does over SSH.
import { POWERSHELL_COMMAND } from '../../../runner/testing/index.js';
import type { SimulatedWindowsNode } from '../model.js';
import { surfaceOf } from '../surface/index.js';
import { clixml } from './clixml.js';
import type { PowerShellHost } from './host.js';

export interface ProgramOutput {
  stdout: string;
  stderr: string;
  code: number;
}

/** The -EncodedCommand argument of a powershell.exe command line, or null if it is not one. */
export function encodedCommandOf(command: string): string | null {
  if (!command.startsWith(`${POWERSHELL_COMMAND} `)) return null;
  const rest = command.slice(POWERSHELL_COMMAND.length + 1);
  return /^[A-Za-z0-9+/=]+$/.test(rest) ? rest : null;
}

export async function runPowerShell(
  host: PowerShellHost,
  node: SimulatedWindowsNode,
  encodedCommand: string,
  stdin: string,
): Promise<ProgramOutput> {
  const out = await host.run({ encodedCommand, stdin }, surfaceOf(node));
  return { stdout: out.stdout, stderr: clixml(out.consoleStderr, out.streams), code: out.exitCode };
}
