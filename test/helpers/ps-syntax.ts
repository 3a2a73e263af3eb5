// A PowerShell syntax check with PowerShell itself: the real parser ([Parser]::ParseInput, as the
// bootstrap runs it on the node) through PlayPwshHost (lab/windows/pwsh-host, Compat51.cs), plus a
// walk of the AST that refuses what Windows PowerShell 5.1 (the nodes' version) cannot run: 7-only
// operators (? :, ??, ?., && ||), parameters (-AsHashtable, -Parallel, ConvertFrom-Json -Depth...),
// commands (Get-Error) and variables ($IsWindows). Each finding has its line and column (1-based).
import { sharedPowerShellHost } from '../../lab/windows/powershell/host.js';

export interface PsSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

/** The engine's version (PowerShell 7's parser; the 5.1 check is the AST walk on top). */
export async function powerShellVersion(): Promise<string> {
  return (await sharedPowerShellHost()).version;
}

export async function parsePowerShell(text: string): Promise<{ errors: PsSyntaxError[] }> {
  const check = await (await sharedPowerShellHost()).check(text);
  const errors: PsSyntaxError[] = [
    ...check.parseErrors.map((e) => ({ line: e.line, column: e.column, text: e.message })),
    ...check.problems.map((p) => ({ line: p.line, column: p.column, text: `${p.construct}: ${p.why} (${p.text})` })),
  ];
  return { errors: errors.sort((a, b) => a.line - b.line || a.column - b.column) };
}

/** The errors with a few lines of context, for assertion messages. */
export function describeErrors(text: string, errors: readonly PsSyntaxError[]): string {
  const lines = text.split('\n');
  return (
    errors
      .slice(0, 5)
      .map((e) => {
        const around = lines
          .slice(Math.max(0, e.line - 2), e.line + 1)
          .map((l, i) => `  ${Math.max(1, e.line - 1) + i}| ${l}`)
          .join('\n');
        return `line ${e.line}, column ${e.column}: ${JSON.stringify(e.text)}\n${around}`;
      })
      .join('\n') + (errors.length > 5 ? `\n… ${errors.length - 5} more` : '')
  );
}
