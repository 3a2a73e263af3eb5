// One of play's remote functions run on a simulated node in this process, exactly as the transport
// sends it over SSH (play/testing's wire format): the bootstrap command line, the program on stdin,
// and the result read back as play reads it. Tests use it to drive the model through our real
// PowerShell without an SSH server.
import type { ExecResult, Remote, Script } from '../../../runner/index.js';
import {
  bootstrapCommand,
  CONTRACT,
  decodeClixml,
  type PlayFunctionName,
  PsCall,
  type PsCallResult,
  parseProgramResults,
  powershellProgram,
  validateResult,
} from '../../../runner/testing/index.js';
import type { SimulatedWindowsNode } from '../model.js';
import { sharedPowerShellHost } from './host.js';
import { encodedCommandOf, runPowerShell } from './run-program.js';

const ENCODED_BOOTSTRAP = encodedCommandOf(bootstrapCommand())!;

/**
 * Runs the calls as one program on the node; one result per call. What a contract function returns
 * is checked against its schema (tasks/windows/remote/contract.ts), as the steps check it: a result of the
 * wrong shape throws here, naming the function and the field.
 */
export async function callNode(node: SimulatedWindowsNode, calls: readonly PsCall[]): Promise<PsCallResult[]> {
  const host = await sharedPowerShellHost();
  const out = await runPowerShell(host, node, ENCODED_BOOTSTRAP, powershellProgram(calls));
  const results = parseProgramResults({ ...out, stderr: decodeClixml(out.stderr) }, calls.length, node.state.hostname);
  results.forEach((r, i) => {
    const fn = calls[i]!.fn.name;
    if (r.ok && Object.hasOwn(CONTRACT, fn)) validateResult(fn as PlayFunctionName, r.value);
  });
  return results;
}

/** A Remote over a simulated node in this process: what a Windows step sees, without SSH. */
export class SimulatedWindowsRemote implements Remote {
  /** Every call made, in order, for asserting what ran (args as the step passed them, secrets unrevealed). */
  readonly calls: { fn: string; args: unknown }[] = [];
  /** The program text of each run, as the transport sends it (secrets revealed), for syntax checks. */
  readonly programs: string[] = [];

  constructor(readonly node: SimulatedWindowsNode) {}

  get name(): string {
    return this.node.state.hostname;
  }

  async run(script: Script): Promise<ExecResult> {
    if (!(script instanceof PsCall))
      throw new Error(`a Windows step sent a ${script.shell} script that is not a PsCall`);
    this.calls.push({ fn: script.fn.name, args: script.args });
    this.programs.push(powershellProgram([script]));
    const [result] = await callNode(this.node, [script]);
    return result!.ok
      ? { stdout: JSON.stringify(result!.value), stderr: '', code: 0 }
      : { stdout: '', stderr: result!.error, code: 1 };
  }

  /** The names of the calls made since `from`. */
  namesSince(from: number): string[] {
    return this.calls.slice(from).map((c) => c.fn);
  }
}
