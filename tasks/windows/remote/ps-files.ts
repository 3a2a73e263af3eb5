// The remote half of files (PowerShell 5.1): content as base64 both ways (bytes exactly, no encoding
// or line-ending conversion), sha256 in lowercase hex, writes guarded by the sha256 the plan saw and
// made atomic with a temp file in the same directory. Registry values: steps/registry-value/.
import { playFunction } from './contract.js';

export const GET_FILE = playFunction(
  'Get-PlayFile',
  String.raw`
  $item = Get-Item -LiteralPath $a.path -Force -ErrorAction SilentlyContinue
  if ($null -eq $item) { return $null }
  if ($item.PSIsContainer) { throw ('{0} is a directory, not a file' -f $a.path) }
  $hash = (Get-FileHash -LiteralPath $item.FullName -Algorithm SHA256).Hash.ToLowerInvariant()
  $content = $null
  if ($item.Length -le [int64]$a.maxBytes) { $content = [System.Convert]::ToBase64String([System.IO.File]::ReadAllBytes($item.FullName)) }
  [ordered]@{ sha256 = $hash; size = [int64]$item.Length; contentBase64 = $content }
`,
);

export const SET_FILE = playFunction(
  'Set-PlayFile',
  String.raw`
  $path = [string]$a.path
  $current = $null
  if (Test-Path -LiteralPath $path -PathType Leaf) {
    $current = (Get-FileHash -LiteralPath $path -Algorithm SHA256).Hash.ToLowerInvariant()
  } elseif (Test-Path -LiteralPath $path) {
    throw ('{0} exists and is not a file: not replaced' -f $path)
  }
  $expected = $a.expectedSha256
  if ($current -ne $expected) {
    $was = 'absent'
    if ($current) { $was = $current }
    $planned = 'absent'
    if ($expected) { $planned = $expected }
    throw ('{0} changed since it was probed (sha256 {1}, planned for {2}): not overwritten' -f $path, $was, $planned)
  }
  $bytes = [System.Convert]::FromBase64String([string]$a.contentBase64)
  $dir = Split-Path -Path $path -Parent
  if (-not (Test-Path -LiteralPath $dir)) { New-Item -ItemType Directory -Path $dir -Force | Out-Null }
  $tmp = Join-Path $dir ('.play-' + [System.Guid]::NewGuid().ToString('N') + '.tmp')
  [System.IO.File]::WriteAllBytes($tmp, $bytes)
  try {
    if ($null -eq $current) {
      [System.IO.File]::Move($tmp, $path)
    } else {
      [System.IO.File]::Replace($tmp, $path, [NullString]::Value)
    }
  } catch {
    Remove-Item -LiteralPath $tmp -Force -ErrorAction SilentlyContinue
    throw
  }
  [ordered]@{ sha256 = (Get-FileHash -LiteralPath $path -Algorithm SHA256).Hash.ToLowerInvariant() }
`,
);

/**
 * One piece of an upload (uploaded-file.ts): appends the bytes to a temp file, which the first piece
 * (offset 0) creates afresh. A temp file whose length is not the offset is what an interrupted upload
 * left: refused, so the upload starts over rather than gluing two attempts together.
 */
export const ADD_FILE_CHUNK = playFunction(
  'Add-PlayFileChunk',
  String.raw`
  $path = [string]$a.path
  $offset = [int64]$a.offset
  $bytes = [System.Convert]::FromBase64String([string]$a.contentBase64)
  $mode = [System.IO.FileMode]::Append
  if ($offset -eq 0) {
    $dir = Split-Path -Path $path -Parent
    if (-not (Test-Path -LiteralPath $dir)) { New-Item -ItemType Directory -Path $dir -Force | Out-Null }
    $mode = [System.IO.FileMode]::Create
  } else {
    $item = Get-Item -LiteralPath $path -Force -ErrorAction SilentlyContinue
    $has = 0
    if ($null -ne $item) { $has = [int64]$item.Length }
    if ($has -ne $offset) { throw ('{0} holds {1} bytes, not the {2} sent so far: the upload starts over' -f $path, $has, $offset) }
  }
  $stream = [System.IO.File]::Open($path, $mode)
  try { $stream.Write($bytes, 0, $bytes.Length) } finally { $stream.Close() }
  [ordered]@{ size = $offset + $bytes.Length }
`,
);

/**
 * The last step of an upload: the temp file's sha256 must be the one sent; then it takes the path's
 * place. With expectedSha256 (fileContent's pieces) the destination must still be as planned, as
 * Set-PlayFile checks: a file changed since the probe is not overwritten.
 */
export const COMPLETE_UPLOAD = playFunction(
  'Complete-PlayUpload',
  String.raw`
  $tmp = [string]$a.tempPath
  $path = [string]$a.path
  $hash = (Get-FileHash -LiteralPath $tmp -Algorithm SHA256).Hash.ToLowerInvariant()
  if ($hash -ne $a.sha256) {
    Remove-Item -LiteralPath $tmp -Force -ErrorAction SilentlyContinue
    throw ('{0} arrived with sha256 {1}, not the {2} sent: not put in place' -f $path, $hash, $a.sha256)
  }
  if (@($a.PSObject.Properties.Name) -contains 'expectedSha256') {
    $current = $null
    if (Test-Path -LiteralPath $path -PathType Leaf) { $current = (Get-FileHash -LiteralPath $path -Algorithm SHA256).Hash.ToLowerInvariant() }
    if ($current -ne $a.expectedSha256) {
      Remove-Item -LiteralPath $tmp -Force -ErrorAction SilentlyContinue
      $was = 'absent'
      if ($current) { $was = $current }
      $planned = 'absent'
      if ($a.expectedSha256) { $planned = $a.expectedSha256 }
      throw ('{0} changed since it was probed (sha256 {1}, planned for {2}): not overwritten' -f $path, $was, $planned)
    }
  }
  if (Test-Path -LiteralPath $path -PathType Leaf) {
    [System.IO.File]::Replace($tmp, $path, [NullString]::Value)
  } elseif (Test-Path -LiteralPath $path) {
    Remove-Item -LiteralPath $tmp -Force -ErrorAction SilentlyContinue
    throw ('{0} exists and is not a file: not replaced' -f $path)
  } else {
    [System.IO.File]::Move($tmp, $path)
  }
  [ordered]@{ sha256 = $hash }
`,
);
