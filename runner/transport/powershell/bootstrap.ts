// The command line sent to a Windows host: a short bootstrap as -EncodedCommand (UTF-16LE base64),
// the same whatever the host's OpenSSH DefaultShell is (cmd.exe or powershell.exe), and well under
// cmd.exe's 8191-character limit. The real program comes on stdin, so its size is unlimited and
// secrets in it never appear on a command line. The bootstrap parses the program with PowerShell's
// own parser first: a parse error is reported as such (exit 3) and nothing runs.

export const BOOTSTRAP = [
  "$ErrorActionPreference='Stop';$ProgressPreference='SilentlyContinue'",
  '$u=New-Object Text.UTF8Encoding $false;[Console]::InputEncoding=$u;[Console]::OutputEncoding=$u',
  '$s=[Console]::In.ReadToEnd();$t=$null;$e=$null',
  '[void][Management.Automation.Language.Parser]::ParseInput($s,[ref]$t,[ref]$e)',
  "if($e.Count){[Console]::Out.Write((ConvertTo-Json -Compress -InputObject @{playParseErrors=@($e|%{'line '+$_.Extent.StartLineNumber+': '+$_.Message})}));exit 3}",
  '. ([ScriptBlock]::Create($s))',
].join('\n');

/** Exit code of the bootstrap when the program did not parse. */
export const PARSE_ERROR_EXIT = 3;

export const POWERSHELL = 'powershell.exe -NoProfile -NonInteractive -ExecutionPolicy Bypass -EncodedCommand';

export function encodeCommand(text: string): string {
  return Buffer.from(text, 'utf16le').toString('base64');
}

/** The whole command line; asserted to fit cmd.exe's limit. */
export function bootstrapCommand(): string {
  const line = `${POWERSHELL} ${encodeCommand(BOOTSTRAP)}`;
  if (line.length > 8191) throw new Error(`the PowerShell bootstrap is ${line.length} characters, over cmd.exe's 8191`);
  return line;
}
