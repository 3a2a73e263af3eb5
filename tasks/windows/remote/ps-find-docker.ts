// Find-DockerExe, nested in the bodies of the functions that run docker.exe (ps-docker.ts and the
// dockerEngine step folder's remote.ts): a module of its own, so a step folder can use it without
// importing the contract, which imports the folders.

/** Find-DockerExe: docker.exe on the PATH, else where DockerMsftProvider installs it; $null when absent. */
export const FIND_DOCKER = String.raw`
  function Find-DockerExe {
    $command = Get-Command -Name docker.exe -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($null -ne $command) { return $command.Path }
    $candidate = Join-Path $env:ProgramFiles 'Docker\docker.exe'
    if (Test-Path -LiteralPath $candidate -PathType Leaf) { return $candidate }
    return $null
  }
`;
