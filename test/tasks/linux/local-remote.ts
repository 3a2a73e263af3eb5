// Test doubles for the Linux steps: a Remote that runs each script with the local /bin/sh (stdin
// passed through, a Secret revealed as a transport would), probes batched exactly as the runner
// batches them, and a PATH whose `reboot`, `id` and `pwned` record that they were called (so an
// injection is seen, and harmless, rather than executed).
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Change } from '../../../runner/core/change.js';
import type { Script } from '../../../runner/core/quote.js';
import { isSecret } from '../../../runner/core/secret.js';
import type { AnyStep, ExecOptions, ExecResult, Remote, ShellProbe, Step } from '../../../runner/core/step.js';
import { newNonce } from '../../../runner/core/nonce.js';
import { batchScript, splitBatch } from '../../../runner/run/probe-batch.js';
import { commandText } from '../../../runner/transport/kept-shell.js';

export const HOSTILE = [`x'; touch /tmp/pwned; echo '`, '$(reboot)', '`id`'] as const;

export interface LocalHost extends Remote {
  readonly root: string;
  readonly scripts: string[];
  /** Lines written by the stub commands: any entry means a value was executed. */
  executed(): string[];
}

const made: string[] = [];

/** Removes every temp directory localHost() made (for test.after.always). */
export function removeHosts(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/**
 * `wrap` runs the script under another command (e.g. `unshare -n`), given as argv. `keptShell`: each
 * script as a kept shell runs it (commandText: in a subshell with `$play_private`, its input in the
 * text), but one whose input is a secret, which the runner sends as an exec.
 */
export function localHost(wrap: readonly string[] = [], keptShell = false): LocalHost {
  const base = mkdtempSync(join(tmpdir(), 'play-linux-'));
  made.push(base);
  const root = join(base, 'root');
  const bin = join(base, 'bin');
  const canary = join(base, 'executed.log');
  mkdirSync(root);
  mkdirSync(bin);
  for (const name of ['reboot', 'id', 'pwned']) {
    writeFileSync(join(bin, name), `#!/bin/sh\necho "${name} $*" >> '${canary}'\n`);
    chmodSync(join(bin, name), 0o755);
  }
  const scripts: string[] = [];
  return {
    name: 'local',
    root,
    scripts,
    executed: () => (existsSync(canary) ? readFileSync(canary, 'utf8').split('\n').filter(Boolean) : []),
    run(script: Script, options?: ExecOptions): Promise<ExecResult> {
      scripts.push(script.text);
      const input = options?.stdin;
      const kept = keptShell && !isSecret(input);
      const text = kept
        ? commandText(script.text, newNonce(), input === undefined ? undefined : Buffer.from(input))
        : script.text;
      const argv = [...wrap, '/bin/sh', '-c', text];
      return new Promise((resolve, reject) => {
        const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
        let stdout = '',
          stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code) => resolve({ stdout, stderr, code }));
        child.stdin.on('error', () => {}); // a script that does not read its stdin
        child.stdin.end(input === undefined || kept ? '' : isSecret(input) ? input.reveal() : input);
      });
    },
  };
}

/** Probes steps in one batch, as the runner does; returns each step's parsed actual state. */
export async function probeAll(remote: Remote, steps: readonly AnyStep[]): Promise<unknown[]> {
  const nonce = newNonce();
  const probes = steps.map((s) => s.probe() as ShellProbe<unknown>);
  const out = await remote.run(
    batchScript(
      probes.map((p) => p.script),
      nonce,
    ),
  );
  return splitBatch(out, nonce, probes.length).map((r, i) => probes[i]!.parse(r));
}

export async function plan<A>(remote: Remote, step: Step<any, A, any>): Promise<{ actual: A | null; change: Change }> {
  const [actual] = await probeAll(remote, [step]);
  return { actual: actual as A | null, change: step.diff(step.desired, actual as A | null) };
}

/** One runner cycle: probe, diff, apply, probe again; returns the change and what remains. */
export async function converge(
  remote: Remote,
  step: AnyStep,
): Promise<{ change: Change; rest: Change; outputs: unknown }> {
  const { actual, change } = await plan(remote, step);
  const outputs = change.action === 'noop' ? undefined : await step.apply(remote, change, actual, step.desired);
  const after = await plan(remote, step);
  return { change, rest: after.change, outputs };
}

/** Every path under dir (relative, sorted), directories marked with a trailing '/'. */
export function tree(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const rel = prefix + name;
    if (lstatSync(join(dir, name)).isDirectory()) out.push(`${rel}/`, ...tree(join(dir, name), `${rel}/`));
    else out.push(rel);
  }
  return out.sort();
}
