// The JSON contract of the Windows steps' remote half: for every PowerShell function a step may
// call, the shape of its one argument and of what it returns. The steps (tasks/windows/*.ts, with
// the real PowerShell text) and the simulated Windows node (lab/windows/, a test double that answers
// the same calls from a model) are both written against these types, so they cannot drift apart.
// `null` means absent. Names follow PowerShell's verb-noun style with a `Play` prefix.

export type ServiceStartMode = 'Auto' | 'Manual' | 'Disabled';
export type ServiceState = 'Running' | 'Stopped' | 'StartPending' | 'StopPending' | 'Paused';
export type RegistryType = 'String' | 'ExpandString' | 'DWord' | 'QWord' | 'MultiString' | 'Binary';

export interface WindowsContract {
  // --- OS, boot, hotfixes (docs/domain.md#hotfix-to-a-pinned-build) ---------------------------------
  'Get-PlayOsInfo': {
    args: {};
    result: {
      caption: string;
      version: string /* 10.0.17763 */;
      build: number;
      revision: number;
      lastBootUpTime: string /* ISO 8601 */;
      pendingReboot: boolean;
    };
  };
  /**
   * installed: Get-HotFix lists the KB; installedOn: its date (yyyy-MM-dd) when Windows knows it.
   * wusaExitCode: what wusa.exe returned the last time Install-PlayHotfix ran for this KB on this
   * host (recorded under HKLM:\\SOFTWARE\\Play\\Hotfixes, value <KB>), null if it never ran: a KB that
   * wusa found not applicable (superseded) is never listed by Get-HotFix, and the step needs to know.
   * msuPresent: whether msuPath is a file on the host (null when no msuPath is given), so that a plan
   * says an install will fail before a rolling upgrade drains the node.
   */
  'Get-PlayHotfix': {
    args: { kb: string /* KB4549949 */; msuPath?: string };
    result: { installed: boolean; installedOn: string | null; wusaExitCode: number | null; msuPresent: boolean | null };
  };
  /**
   * wusa.exe <msu> /quiet /norestart; exitCode as wusa returned it (0, 3010, 1641, 2359302, -2145124329 = 0x80240017),
   * also recorded for Get-PlayHotfix's wusaExitCode. Throws when msuPath is not a file.
   */
  'Install-PlayHotfix': { args: { kb: string; msuPath: string }; result: { exitCode: number } };
  'Test-PlayPath': { args: { path: string }; result: { exists: boolean; isDirectory: boolean } };
  /** Schedules a restart (shutdown.exe /r /t N) and returns at once; the connection drops soon after. */
  'Restart-PlayComputer': { args: { delaySeconds: number }; result: { scheduled: boolean } };

  // --- Features and capabilities -------------------------------------------------------------
  'Get-PlayWindowsFeature': {
    args: { name: string };
    result: { name: string; installState: 'Installed' | 'Available' | 'InstallPending' | 'Removed' } | null;
  };
  'Install-PlayWindowsFeature': { args: { name: string }; result: { restartNeeded: boolean } };
  'Get-PlayWindowsCapability': {
    args: { name: string /* OpenSSH.Server~~~~0.0.1.0 */ };
    result: { name: string; state: 'Installed' | 'NotPresent' | 'InstallPending' } | null;
  };
  'Add-PlayWindowsCapability': { args: { name: string }; result: { restartNeeded: boolean } };

  // --- Docker --------------------------------------------------------------------------------
  /** Raw `docker version` output (null when docker.exe is absent) and the service's existence. */
  'Get-PlayDockerEngine': { args: {}; result: { dockerVersion: string | null; serviceExists: boolean } };
  /** Install-Module DockerMsftProvider; Install-Package Docker -ProviderName DockerMsftProvider. */
  'Install-PlayDockerEngine': { args: { version: string | null }; result: { restartNeeded: boolean } };
  /**
   * `docker image inspect <reference>`: id (sha256:<hex>) and RepoTags. image null when the image is
   * absent or the daemon does not answer (daemonRunning false, also when docker.exe is absent).
   */
  'Get-PlayDockerImage': {
    args: { reference: string };
    result: { daemonRunning: boolean; image: { id: string; repoTags: string[] } | null };
  };
  /** `docker pull <reference>`, then the pulled image's id; throws docker's stderr text when the pull fails. */
  'Invoke-PlayDockerPull': { args: { reference: string }; result: { id: string } };

  // --- Files and registry --------------------------------------------------------------------
  /** Content is returned (base64) only when the file is at most maxBytes; sha256 always. */
  'Get-PlayFile': {
    args: { path: string; maxBytes: number };
    result: { sha256: string; size: number; contentBase64: string | null } | null;
  };
  /** Writes atomically (temp file, then move); creates missing parent directories. */
  'Set-PlayFile': {
    args: {
      path: string;
      contentBase64: string;
      expectedSha256: string | null /* guard: current content, or null for absent */;
    };
    result: { sha256: string };
  };
  /**
   * path: `HKLM:\\...` (also HKCU:, HKCR:, HKU:), the 64-bit view; name `(default)` is the key's default
   * value. data by type: String/ExpandString a string (ExpandString not expanded), DWord/QWord an
   * unsigned number, MultiString a string[], Binary lowercase hex ('' when empty).
   */
  'Get-PlayRegistryValue': {
    args: { path: string /* HKLM:\\SOFTWARE\\... */; name: string };
    result: { type: RegistryType; data: string | number | string[] } | null;
  };
  'Set-PlayRegistryValue': {
    args: { path: string; name: string; type: RegistryType; data: string | number | string[] };
    result: {};
  };

  // --- Services (sc.exe; docs/domain.md, steps 11-13) -------------------------------------------
  /**
   * Raw outputs of `sc.exe qc NAME 8192` and `sc.exe queryex NAME` (parsed on our side, tested
   * against the field notes' real outputs), plus the names of the services that depend on it.
   * null outputs when the service does not exist (sc.exe exit 1060).
   */
  'Get-PlayService': { args: { name: string }; result: { qc: string; queryex: string; dependents: string[] } | null };
  /** sc.exe create / sc.exe config for the given fields (password is a Secret on the TS side). */
  'Set-PlayService': {
    args: {
      name: string;
      create: boolean;
      binPath?: string;
      displayName?: string;
      startMode?: ServiceStartMode;
      dependencies?: string[];
      account?: string;
      password?: string;
    };
    result: {};
  };
  /** Starts/stops; restart stops running dependents first and starts them again after (docs/field-notes.md#b-restarting-a-service-with-dependents). */
  'Set-PlayServiceState': {
    args: { name: string; action: 'start' | 'stop' | 'restart' };
    result: { state: ServiceState; pid: number; restartedDependents: string[] };
  };
  /** Raw `nssm get NAME <parameter>` outputs (nssm writes UTF-16LE; decoded), null if not an nssm service. */
  'Get-PlayNssmService': {
    args: { name: string };
    result: { Application: string; AppParameters: string; AppDirectory: string; DependOnService: string } | null;
  };
  'Set-PlayNssmService': {
    args: {
      name: string;
      install: boolean;
      application?: string;
      appParameters?: string;
      appDirectory?: string;
      dependOnService?: string[];
    };
    result: {};
  };

  // --- HNS (docs/domain.md#step-8-hns-network) ------------------------------------------------
  'Get-PlayHnsNetwork': {
    args: { name: string };
    result: {
      id: string;
      name: string;
      type: string;
      addressPrefix: string;
      gateway: string;
      adapterName: string;
    } | null;
  };
  /** New-HNSNetwork -Type L2Bridge ...: the NIC blinks, open connections can drop (docs/field-notes.md#a-hns-network-and-endpoint). */
  'New-PlayHnsNetwork': {
    args: { name: string; type: 'L2Bridge'; addressPrefix: string; gateway: string; adapterName: string };
    result: { id: string };
  };
  'Remove-PlayHnsNetwork': { args: { name: string }; result: {} };
  /**
   * gateway as HNS stores it ('' when it has none: the steps read that as 0.0.0.0); compartmentId 1
   * when the endpoint's vNIC "vEthernet (<name>)" is in the host's default compartment, else null;
   * forwarding: that vNIC's IPv4 forwarding is enabled.
   */
  'Get-PlayHnsEndpoint': {
    args: { name: string };
    result: {
      id: string;
      name: string;
      networkName: string;
      ipAddress: string;
      gateway: string;
      compartmentId: number | null;
      forwarding: boolean;
    } | null;
  };
  'New-PlayHnsEndpoint': {
    args: { name: string; networkName: string; ipAddress: string; gateway: string };
    result: { id: string };
  };
  'Remove-PlayHnsEndpoint': { args: { name: string }; result: {} };
  /** Attach-HnsHostEndpoint -CompartmentID N, and netsh int ipv4 set int "vEthernet (<name>)" for=en. */
  'Set-PlayHnsEndpointHost': { args: { name: string; compartmentId: number; forwarding: boolean }; result: {} };

  // --- Firewall, time, updates ---------------------------------------------------------------
  'Get-PlayFirewallRule': {
    args: { name: string };
    result: {
      name: string;
      displayName: string;
      enabled: boolean;
      direction: 'Inbound' | 'Outbound';
      protocol: string;
      localPort: string;
      action: 'Allow' | 'Block';
    } | null;
  };
  'Set-PlayFirewallRule': {
    args: {
      name: string;
      displayName: string;
      enabled: boolean;
      direction: 'Inbound' | 'Outbound';
      protocol: string;
      localPort: string;
      action: 'Allow' | 'Block';
    };
    result: {};
  };
  'Get-PlayTimeZone': { args: {}; result: { id: string } };
  'Set-PlayTimeZone': { args: { id: string }; result: {} };
  /** DateTime\Servers values 1..n and (default), w32time start mode, w32tm manual peer list and flags. */
  'Get-PlayNtp': {
    args: {};
    result: {
      servers: string[];
      defaultIndex: string | null;
      manualPeerList: string;
      syncFromFlags: string;
      w32timeStartMode: ServiceStartMode;
    };
  };
  'Set-PlayNtp': { args: { servers: string[] }; result: {} };
  /** HKLM:\SOFTWARE\Policies\Microsoft\Windows\WindowsUpdate\AU NoAutoUpdate / AUOptions. */
  'Get-PlayAutoUpdate': { args: {}; result: { noAutoUpdate: number | null; auOptions: number | null } };
  /** scregedit.wsf /AU 1 semantics: net stop wuauserv, NoAutoUpdate=1, net start wuauserv. */
  'Set-PlayAutoUpdate': { args: { enabled: boolean }; result: {} };

  // --- NICs and the DNS client (docs/domain.md#step-2-nics-and-dns-client; optional) -----------------------
  /**
   * The physical adapters with these MACs (00-15-5D-00-00-01 form; missing ones are left out).
   * ipInterface: where the IP configuration lives: the adapter itself, or the vSwitch's host vNIC
   * "vEthernet (<name>)" (same MAC) once an HNS network is bound to it (docs/domain.md#step-8-hns-network). ipv4:
   * "address/prefix" of the static and DHCP addresses (not APIPA); gateway: the 0.0.0.0/0 next hop.
   */
  'Get-PlayNetAdapters': {
    args: { macAddresses: string[] };
    result: {
      adapters: {
        macAddress: string;
        name: string;
        interfaceIndex: number;
        ipInterface: string;
        dhcp: boolean;
        ipv4: string[];
        gateway: string | null;
        dnsServers: string[];
      }[];
    };
  };
  /**
   * For the adapter with this MAC, the given fields only (on its ipInterface): ipv4 is the exact set
   * of static addresses (DHCP turned off, others removed), gateway the only default route, then the
   * adapter is renamed (Rename-NetAdapter) last.
   */
  'Set-PlayNetAdapter': {
    args: { macAddress: string; newName?: string; ipv4?: string[]; gateway?: string; dnsServers?: string[] };
    result: {};
  };
  /** primaryDomain: Tcpip\Parameters `NV Domain` (null when unset); suffixSearchList: Get-DnsClientGlobalSetting. */
  'Get-PlayDnsClient': { args: {}; result: { primaryDomain: string | null; suffixSearchList: string[] } };
  'Set-PlayDnsClient': { args: { primaryDomain?: string; suffixSearchList?: string[] }; result: {} };

  // --- Destructive network clean-up (docs/domain.md#step-1-network-clean-up; only when asked) ----------
  /**
   * token: HKLM:\SOFTWARE\Play\NetworkCleanup `Token`, written by the last clean-up (null: never
   * ran); rebootPending: the node has not booted since that clean-up (its BootTime value is the
   * current LastBootUpTime); what a clean-up would remove now: every HNS network, and the network devices in state
   * Error (ghost virtual adapters, `Get-PnpDevice -Class Net | ? Status -eq Error`).
   */
  'Get-PlayNetworkCleanup': {
    args: {};
    result: {
      token: string | null;
      rebootPending: boolean;
      hnsNetworks: string[];
      ghostAdapters: { instanceId: string; friendlyName: string }[];
    };
  };
  /** Removes them (ghosts: their HKLM\SYSTEM\CurrentControlSet\Enum keys, docs/field-notes.md#a-network-clean-up-and-nics), then records the token; a reboot completes it. */
  'Invoke-PlayNetworkCleanup': {
    args: { token: string; removeHnsNetworks: boolean; removeGhostAdapters: boolean };
    result: { removedNetworks: string[]; removedAdapters: string[] };
  };
}

export type PlayFunctionName = keyof WindowsContract;
export type ArgsOf<F extends PlayFunctionName> = WindowsContract[F]['args'];
export type ResultOf<F extends PlayFunctionName> = WindowsContract[F]['result'];
