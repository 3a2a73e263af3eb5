// One PowerShell program for a list of calls: the definitions of the functions they use, the calls
// as JSON (a single-quoted literal: data, never code), and a dispatcher that runs each call, catches
// its error, and writes one JSON array with a result per call on stdout.
//
// Secret arguments are not in that JSON: PowerShell's errors quote their input (ConvertFrom-Json's
// error record carries the text it could not read, and a terminating error shows its source line),
// so the JSON text must be safe to echo. A Secret, which may only be a whole top-level argument,
// stands there as {"playSecret": n}; its clear text travels apart, as the n-th base64 string of
// $playSecrets (base64: no quote can end the literal and nothing echoes the clear text), and becomes
// a plain string in the call's arguments only inside the dispatcher's try, just before the call.
import { quotePs } from '../../core/quote.js';
import { isSecret } from '../../core/secret.js';
import type { PsCall, PsCallResult } from '../../core/ps-call.js';
import type { ExecResult } from '../../core/step.js';
import { PARSE_ERROR_EXIT } from './bootstrap.js';
import { errorReason } from './clixml.js';

export const CALLS_VARIABLE = '$playCalls';
export const SECRETS_VARIABLE = '$playSecrets';
/** The key of the object that stands for a secret argument in the calls' JSON. */
export const SECRET_PLACEHOLDER = 'playSecret';

function holdsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(holdsSecret);
  return !!v && typeof v === 'object' && Object.values(v).some(holdsSecret);
}

/** The calls' JSON with placeholders, and the secrets' clear text in placeholder order. */
function splitSecrets(calls: readonly PsCall[]): { json: string; secrets: string[] } {
  const secrets: string[] = [];
  const list = calls.map((c) => {
    const args = Object.fromEntries(
      Object.entries(c.args).map(([name, v]) => {
        if (isSecret(v)) return [name, { [SECRET_PLACEHOLDER]: secrets.push(v.reveal()) - 1 }];
        if (holdsSecret(v)) throw new Error(`${c.fn.name}: a Secret may only be a whole argument, not inside ${name}`);
        return [name, v];
      }),
    );
    return { fn: c.fn.name, args };
  });
  return { json: JSON.stringify(list), secrets };
}

export function program(calls: readonly PsCall[]): string {
  const definitions = new Map<string, string>();
  for (const c of calls) {
    const known = definitions.get(c.fn.name);
    if (known !== undefined && known !== c.fn.definition) throw new Error(`two different definitions of ${c.fn.name}`);
    definitions.set(c.fn.name, c.fn.definition);
  }
  const { json, secrets } = splitSecrets(calls);
  const encoded = secrets.map((s) => quotePs(Buffer.from(s, 'utf8').toString('base64')));
  return [
    ...definitions.values(),
    `${CALLS_VARIABLE} = ConvertFrom-Json -InputObject ${quotePs(json)}`,
    `${SECRETS_VARIABLE} = @(${encoded.join(', ')})`,
    '$playResults = foreach ($playCall in @($playCalls)) {',
    '  try {',
    '    $global:LASTEXITCODE = 0',
    '    foreach ($playArg in @($playCall.args.PSObject.Properties)) {',
    `      $playRef = $playArg.Value.${SECRET_PLACEHOLDER}`,
    '      if ($playArg.Value -is [Management.Automation.PSCustomObject] -and $null -ne $playRef) {',
    '        $playArg.Value = [Text.Encoding]::UTF8.GetString([Convert]::FromBase64String($playSecrets[$playRef]))',
    '      }',
    '    }',
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
    const why = errorReason(out.stderr) || text.slice(0, 500) || `exit ${out.code ?? 'by a signal'}`;
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
