// Invoke-Hns and its finders, nested in the bodies of the functions that call HNS (ps-hns.ts and the
// networkCleanup and hnsHostEndpoint step folders' remote.ts): a module of its own, so a step folder can use it without
// importing the contract, which imports the folders. Instead of importing C:\k\hns.psm1 (field note A)
// it calls the HNS v1 API that module wraps (vmcompute.dll HNSCall) through a small P/Invoke.

export const INVOKE_HNS = String.raw`
  function Invoke-Hns {
    param([string]$Method, [string]$Path, [string]$Request)
    if ($null -eq ('PlayHns.NativeMethods' -as [type])) {
      $signature = '[DllImport("vmcompute.dll")] public static extern void HNSCall([MarshalAs(UnmanagedType.LPWStr)] string method, [MarshalAs(UnmanagedType.LPWStr)] string path, [MarshalAs(UnmanagedType.LPWStr)] string request, [MarshalAs(UnmanagedType.LPWStr)] out string response);'
      Add-Type -Namespace PlayHns -Name NativeMethods -MemberDefinition $signature
    }
    $response = ''
    [PlayHns.NativeMethods]::HNSCall($Method, $Path, $Request, [ref]$response)
    if (-not $response) { throw ('HNS {0} {1} returned nothing' -f $Method, $Path) }
    $reply = ConvertFrom-Json -InputObject $response
    if (-not $reply.Success) { throw ('HNS {0} {1} failed: {2}' -f $Method, $Path, $reply.Error) }
    return $reply.Output
  }
  function Find-HnsNetwork {
    param([string]$Name)
    return @(Invoke-Hns 'GET' '/networks' '') | Where-Object { $_.Name -eq $Name } | Select-Object -First 1
  }
  function Find-HnsEndpoint {
    param([string]$Name)
    return @(Invoke-Hns 'GET' '/endpoints' '') | Where-Object { $_.Name -eq $Name -and -not $_.IsRemoteEndpoint } | Select-Object -First 1
  }
  function Get-HostInterface {
    param([string]$Name)
    $alias = 'vEthernet ({0})' -f $Name
    return Get-NetIPInterface -InterfaceAlias $alias -AddressFamily IPv4 -ErrorAction SilentlyContinue | Select-Object -First 1
  }
`;
