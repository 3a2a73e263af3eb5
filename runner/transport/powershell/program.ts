// One PowerShell program for a list of calls: the definitions of the functions they use, the calls
// as JSON (a single-quoted literal: data, never code), and a dispatcher that runs each call, catches
// its error, and writes one JSON array with a result per call on stdout.
import { quotePs } from '../../core/quote.js';
import { isSecret } from '../../core/secret.js';
import type { PsCall, PsCallResult } from '../../core/ps-call.js';
import type { ExecResult } from '../../core/step.js';
import { PARSE_ERROR_EXIT } from './bootstrap.js';

export const CALLS_VARIABLE = '$playCalls';

function revealDeep(v: unknown): unknown {
  if (isSecret(v)) return v.reveal();
  if (Array.isArray(v)) return v.map(revealDeep);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revealDeep(x)]));
  }
  return v;
}

export function program(calls: readonly PsCall[]): string {
  const definitions = new Map<string, string>();
  for (const c of calls) {
    const known = definitions.get(c.fn.name);
    if (known !== undefined && known !== c.fn.definition) throw new Error(`two different definitions of ${c.fn.name}`);
    definitions.set(c.fn.name, c.fn.definition);
  }
  // Secrets in arguments travel in the program, which goes on stdin: never on a command line.
  // (Revealed before stringify: JSON.stringify would call the Secret's masking toJSON first.)
  const json = JSON.stringify(calls.map((c) => ({ fn: c.fn.name, args: revealDeep(c.args) })));
  return [
    ...definitions.values(),
    `${CALLS_VARIABLE} = ConvertFrom-Json -InputObject ${quotePs(json)}`,
    '$playResults = foreach ($playCall in @($playCalls)) {',
    '  try {',
    '    $global:LASTEXITCODE = 0',
    '    $playValue = & $playCall.fn $playCall.args',
    '    [ordered]@{ ok = $true; value = $playValue }',
    '  } catch {',
    '    [ordered]@{ ok = $false; error = $_.Exception.Message }',
    '  }',
    '}',
    '[Console]::Out.Write((ConvertTo-Json -InputObject @($playResults) -Depth 20 -Compress))',
  ].join('\n');
}

/** Reads the program's stdout back into one result per call; anything else is a clear error. */
export function parseResults(out: ExecResult, count: number, host: string): PsCallResult[] {
  const text = out.stdout.trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const why = out.stderr.trim() || text.slice(0, 500) || `exit ${out.code ?? 'by a signal'}`;
    throw new Error(`${host}: PowerShell returned no JSON result: ${why}`);
  }
  if (out.code === PARSE_ERROR_EXIT && parsed && typeof parsed === 'object' && 'playParseErrors' in parsed) {
    throw new Error(
      `${host}: PowerShell could not parse the program (nothing was run): ${(parsed as { playParseErrors: string[] }).playParseErrors.join('; ')}`,
    );
  }
  // ConvertTo-Json of a one-element array is still an array with -InputObject @(...).
  if (!Array.isArray(parsed) || parsed.length !== count) {
    throw new Error(
      `${host}: PowerShell returned ${Array.isArray(parsed) ? parsed.length : 'no'} results for ${count} calls`,
    );
  }
  return parsed.map((r: any, i) => {
    if (r && r.ok === true) return { ok: true, value: r.value ?? null };
    if (r && r.ok === false) return { ok: false, error: String(r.error) };
    throw new Error(`${host}: PowerShell result ${i + 1} is malformed`);
  });
}
