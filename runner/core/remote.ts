// Small helpers over Remote that every step uses.
import { RemoteError } from './errors.js';
import type { Script } from './quote.js';
import { redact } from './secret.js';
import type { ExecOptions, ExecResult, Remote } from './step.js';

/** Runs a script and throws a RemoteError (with the redacted stderr) unless it exits 0. */
export async function mustRun(
  remote: Remote,
  script: Script,
  what: string,
  options?: ExecOptions,
): Promise<ExecResult> {
  const result = await remote.run(script, options);
  if (result.code !== 0) {
    // The end of the output is where the error usually is.
    const detail = redact((result.stderr || result.stdout).trim()).slice(-2000);
    throw new RemoteError(
      `${what} failed (exit ${result.code ?? 'signal'})${detail ? `: ${detail}` : ''}`,
      result.code,
      detail,
    );
  }
  return result;
}
