// Running a native program (sc.exe, nssm.exe, netsh.exe, w32tm.exe, docker.exe, shutdown.exe) from
// our PowerShell functions, with its arguments arriving exactly as the strings we hold.
//
// Why not `& sc.exe $args`: Windows passes a program ONE command-line string, which the program
// splits into argv itself (sc.exe, nssm.exe and most programs with the C runtime's rules). Windows
// PowerShell 5.1 builds that string from an array by wrapping an element with spaces in double
// quotes but does not escape the double quotes inside it, so a binPath such as
//   "C:\Program Files\k\kubelet.exe" --resolv-conf="" --windows-service
// arrives cut into pieces. Invoke-Native builds the command line itself with the C runtime's rules
// (quoteWindowsArg below is the same algorithm in TypeScript, tested by parsing its output back)
// and starts the program through System.Diagnostics.Process: no cmd.exe, no PowerShell parsing.
// So `sc.exe create kubelet binPath= <that string>` gives sc.exe an argv whose element after
// `binPath=` is the string unchanged, and sc.exe stores it as the service's ImagePath verbatim,
// which is what `sc qc` prints back as BINARY_PATH_NAME.
//
// Output comes back as bytes and is decoded as UTF-16LE when it looks like it (nssm.exe writes
// UTF-16LE to a pipe: read as bytes of another encoding, every other character is a NUL), else as
// UTF-8 (the bootstrap sets the console code page to UTF-8, which child programs inherit).

/** PowerShell text defining Invoke-Native inside a function body (nested, so it needs no contract entry). */
export const INVOKE_NATIVE = String.raw`
  function ConvertFrom-NativeBytes {
    param([byte[]]$Bytes)
    if ($null -eq $Bytes -or $Bytes.Length -eq 0) { return '' }
    $odd = 0
    $zeros = 0
    for ($i = 1; $i -lt $Bytes.Length; $i += 2) {
      $odd++
      if ($Bytes[$i] -eq 0) { $zeros++ }
    }
    if ($zeros * 2 -gt $odd) { return [System.Text.Encoding]::Unicode.GetString($Bytes) }
    return [System.Text.Encoding]::UTF8.GetString($Bytes)
  }
  function Invoke-Native {
    param([string]$FilePath, [string[]]$ArgumentList, [string]$WorkingDirectory)
    $bs = [char]92
    $dq = [char]34
    $special = [char[]]@([char]32, [char]9, [char]10, [char]11, $dq)
    $quoted = @(foreach ($arg in $ArgumentList) {
      if ($arg.Length -gt 0 -and $arg.IndexOfAny($special) -lt 0) {
        $arg
        continue
      }
      $sb = New-Object System.Text.StringBuilder
      [void]$sb.Append($dq)
      $slashes = 0
      foreach ($ch in $arg.ToCharArray()) {
        if ($ch -eq $bs) {
          $slashes++
          continue
        }
        if ($ch -eq $dq) { [void]$sb.Append($bs, 2 * $slashes + 1) } else { [void]$sb.Append($bs, $slashes) }
        [void]$sb.Append($ch)
        $slashes = 0
      }
      [void]$sb.Append($bs, 2 * $slashes)
      [void]$sb.Append($dq)
      $sb.ToString()
    })
    $psi = New-Object System.Diagnostics.ProcessStartInfo
    $psi.FileName = $FilePath
    $psi.Arguments = $quoted -join ' '
    if ($WorkingDirectory) { $psi.WorkingDirectory = $WorkingDirectory }
    $psi.UseShellExecute = $false
    $psi.CreateNoWindow = $true
    $psi.RedirectStandardOutput = $true
    $psi.RedirectStandardError = $true
    $process = [System.Diagnostics.Process]::Start($psi)
    $outStream = New-Object System.IO.MemoryStream
    $errStream = New-Object System.IO.MemoryStream
    $outCopy = $process.StandardOutput.BaseStream.CopyToAsync($outStream)
    $errCopy = $process.StandardError.BaseStream.CopyToAsync($errStream)
    $process.WaitForExit()
    $outCopy.Wait()
    $errCopy.Wait()
    [pscustomobject]@{
      Code = $process.ExitCode
      Out = ConvertFrom-NativeBytes $outStream.ToArray()
      Err = ConvertFrom-NativeBytes $errStream.ToArray()
    }
  }
  function Get-NativeText {
    param($Result)
    return (($Result.Out + ' ' + $Result.Err) -replace [string][char]0, '').Trim()
  }
`;

/**
 * One argument quoted for a Windows command line by the C runtime's rules (the TypeScript twin of
 * Invoke-Native's loop): left alone unless empty or holding a space, tab, newline, vertical tab or
 * double quote; else wrapped in double quotes, each quote preceded by a backslash, and backslashes
 * doubled where they precede a quote (inside, or the closing one).
 */
export function quoteWindowsArg(arg: string): string {
  if (arg.length > 0 && !/[ \t\n\v"]/.test(arg)) return arg;
  let out = '"';
  let slashes = 0;
  for (const ch of arg) {
    if (ch === '\\') {
      slashes++;
      continue;
    }
    out += '\\'.repeat(ch === '"' ? 2 * slashes + 1 : slashes) + ch;
    slashes = 0;
  }
  return out + '\\'.repeat(2 * slashes) + '"';
}

export function windowsCommandLine(args: readonly string[]): string {
  return args.map(quoteWindowsArg).join(' ');
}

/**
 * How a program built with the Microsoft C runtime splits its command line into argv (the rules of
 * CommandLineToArgvW for the arguments after the program name), to check quoteWindowsArg against.
 */
export function parseWindowsCommandLine(line: string): string[] {
  const args: string[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ' || line[i] === '\t') i++;
    if (i >= line.length) break;
    let arg = '';
    let quoted = false;
    for (; i < line.length; i++) {
      const ch = line[i]!;
      if (!quoted && (ch === ' ' || ch === '\t')) break;
      if (ch === '\\') {
        let n = 0;
        while (line[i] === '\\') {
          n++;
          i++;
        }
        if (line[i] === '"') {
          arg += '\\'.repeat(Math.floor(n / 2));
          if (n % 2 === 1) arg += '"';
          else if (quoted && line[i + 1] === '"') {
            arg += '"';
            i++;
          } // "" inside quotes: a literal quote
          else quoted = !quoted;
        } else {
          arg += '\\'.repeat(n);
          i--;
        }
        continue;
      }
      if (ch === '"') {
        if (quoted && line[i + 1] === '"') {
          arg += '"';
          i++;
        } else quoted = !quoted;
        continue;
      }
      arg += ch;
    }
    args.push(arg);
  }
  return args;
}
