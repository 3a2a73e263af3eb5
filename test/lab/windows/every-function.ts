// Runs every remote function's two cases (function-cases.ts) under real PowerShell on fresh simulated
// nodes, in process: the work behind every-function.test.ts and `npm run test:powershell`, which
// prints one closing line `PowerShell <version>: N/N functions ran`.
import { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import { callNode } from '../../../lab/windows/powershell/call.js';
import { sharedPowerShellHost } from '../../../lab/windows/powershell/host.js';
import { psCall } from '../../../runner/core/ps-call.js';
import type { PlayFunctionName } from '../../../tasks/windows/remote/contract.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import { FUNCTION_CASES, type FunctionCase } from './function-cases.js';

export interface CaseOutcome {
  fn: PlayFunctionName;
  kind: 'happy' | 'failure';
  /** null when the case held; else why not. */
  problem: string | null;
  ms: number;
}

async function runCase(fn: PlayFunctionName, c: FunctionCase): Promise<string | null> {
  const node = SimulatedWindowsNode.open({ name: 'node009', rebootSeconds: 0.05, seed: c.seed });
  try {
    for (const b of c.before ?? []) {
      const [r] = await callNode(node, [psCall(PLAY_FUNCTIONS[b.fn], b.args)]);
      if (!r!.ok) return `set-up ${b.fn} failed: ${r!.error}`;
    }
    const args = typeof c.args === 'function' ? c.args(node.state) : c.args;
    const [r] = await callNode(node, [psCall(PLAY_FUNCTIONS[fn], args)]);
    if (c.expect instanceof RegExp) {
      if (r!.ok) return `expected an error matching ${c.expect}, got ${JSON.stringify(r!.value)}`;
      return c.expect.test(r!.error) ? null : `error ${JSON.stringify(r!.error)} does not match ${c.expect}`;
    }
    if (!r!.ok) return `failed: ${r!.error}`;
    return c.expect(r!.value) ? null : `unexpected result ${JSON.stringify(r!.value)}`;
  } catch (e) {
    return `threw: ${(e as Error).message}`;
  } finally {
    node.close();
  }
}

export async function runEveryFunction(): Promise<{ version: string; outcomes: CaseOutcome[] }> {
  const host = await sharedPowerShellHost();
  const outcomes: CaseOutcome[] = [];
  for (const fn of Object.keys(PLAY_FUNCTIONS) as PlayFunctionName[]) {
    for (const kind of ['happy', 'failure'] as const) {
      const started = performance.now();
      const problem = await runCase(fn, FUNCTION_CASES[fn][kind]);
      outcomes.push({ fn, kind, problem, ms: performance.now() - started });
    }
  }
  return { version: host.version, outcomes };
}

/** `PowerShell 7.6.9: 43/43 functions ran` (a function counts when both its cases held). */
export function closingLine(version: string, outcomes: readonly CaseOutcome[]): string {
  const fns = [...new Set(outcomes.map((o) => o.fn))];
  const ran = fns.filter((f) => outcomes.filter((o) => o.fn === f).every((o) => o.problem === null));
  return `PowerShell ${version}: ${ran.length}/${fns.length} functions ran`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { version, outcomes } = await runEveryFunction();
  for (const o of outcomes)
    process.stdout.write(
      `${o.problem === null ? 'ok  ' : 'FAIL'} ${o.fn} (${o.kind}, ${o.ms.toFixed(0)} ms)${o.problem ? `: ${o.problem}` : ''}\n`,
    );
  const line = closingLine(version, outcomes);
  process.stdout.write(`${line}\n`);
  process.exit(outcomes.every((o) => o.problem === null) ? 0 : 1);
}
