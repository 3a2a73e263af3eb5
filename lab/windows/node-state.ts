// The state of a simulated Windows Server 2019 node (a test double): plain JSON, persisted to the
// node's state file after every change. Maps are keyed by lower-cased names and paths (Windows is
// case-insensitive); each record keeps its name as first written.
import type { RegistryType, ServiceStartMode } from '../../runner/testing/index.js';

/** Faults armed for the node's next boot (boot-faults.ts fires them). */
export interface BootFaults {
  hnsNetworkMissing: boolean;
  kubeProxyFails: boolean;
}

export type ServiceRunState = 'Running' | 'Stopped';

export interface ServiceRecord {
  name: string;
  displayName: string;
  binPath: string;
  /** sc's TYPE: 10 WIN32_OWN_PROCESS or 20 WIN32_SHARE_PROCESS (svchost). */
  type: 'own' | 'share';
  startMode: ServiceStartMode;
  account: string;
  dependencies: string[];
  state: ServiceRunState;
  pid: number;
  /** WIN32_EXIT_CODE of the last stop or failed start (1077: never started since boot). */
  win32ExitCode: number;
  /** Accepts PAUSE (nssm-hosted services do: docs/field-notes.md#b-restarting-a-service-with-dependents). */
  pausable: boolean;
}

export interface NssmRecord {
  Application: string;
  AppParameters: string;
  AppDirectory: string;
}

export interface HotfixRecord {
  kb: string;
  /** yyyy-MM-dd */
  installedOn: string;
}

/** A .msu the node knows, by file name: which KB it holds and the build revision it brings. */
export interface MsuRecord {
  fileName: string;
  kb: string;
  /** The OS build revision after the reboot (17763.<revision>); null for a non-cumulative update. */
  revision: number | null;
  /** DISM says 0x800f081e (for another OS version, say). Superseded updates say so too. */
  notApplicable?: boolean;
  /** Default true: DISM exits 3010 and the change waits for a reboot. False: exit 0, applied at once. */
  rebootRequired?: boolean;
  /**
   * Default true: Get-HotFix lists the KB as soon as DISM added it. False: only after the reboot
   * that completes it, as some updates do (docs/domain.md#hotfix-to-a-pinned-build).
   */
  listedBeforeReboot?: boolean;
}

export type FeatureState = 'Installed' | 'Available' | 'InstallPending' | 'Removed';
export interface FeatureRecord {
  name: string;
  installState: FeatureState;
  restartNeeded: boolean;
}

export type CapabilityState = 'Installed' | 'NotPresent' | 'InstallPending';
export interface CapabilityRecord {
  name: string;
  state: CapabilityState;
  restartNeeded: boolean;
}

export interface DockerState {
  install: 'absent' | 'installed';
  version: string | null;
}

/** An image in the local docker store, by the reference it was pulled as. */
export interface DockerImageRecord {
  reference: string;
  id: string;
}
/** An image a registry the node can reach holds; http: the registry speaks plain HTTP (needs insecure-registries). */
export interface RegistryImageRecord {
  id: string;
  http: boolean;
}

export interface FileRecord {
  path: string;
  contentBase64: string;
}

export type RegistryData = string | number | string[];
export interface RegistryValue {
  name: string;
  type: RegistryType;
  data: RegistryData;
}
export interface RegistryKey {
  path: string;
  values: Record<string, RegistryValue>;
}

export interface HnsNetworkRecord {
  id: string;
  name: string;
  type: string;
  addressPrefix: string;
  gateway: string;
  adapterName: string;
}
export interface HnsEndpointRecord {
  id: string;
  name: string;
  networkName: string;
  ipAddress: string;
  gateway: string;
  compartmentId: number | null;
  forwarding: boolean;
}

/**
 * A network adapter. physical false: the host vNIC "vEthernet (<name>)" an HNS vSwitch puts on a
 * physical NIC (same MAC), which then carries that NIC's IP configuration (docs/domain.md#step-8-hns-network).
 */
export interface NetAdapterRecord {
  name: string;
  /** Windows' form: 00-15-5D-00-00-01 */
  macAddress: string;
  interfaceIndex: number;
  physical: boolean;
  dhcp: boolean;
  /** "address/prefix" */
  ipv4: string[];
  gateway: string | null;
  dnsServers: string[];
}

/** A network device as Get-PnpDevice -Class Net lists it; Error: a ghost of a removed virtual adapter. */
export interface PnpNetDevice {
  instanceId: string;
  friendlyName: string;
  status: 'OK' | 'Error';
}

export interface FirewallRuleRecord {
  name: string;
  displayName: string;
  enabled: boolean;
  direction: 'Inbound' | 'Outbound';
  protocol: string;
  localPort: string;
  action: 'Allow' | 'Block';
}

/** A package DISM added (lab/windows/native/dism-remove.ts): what removing it by its identity takes back. */
export interface PackageRecord {
  /** Package_for_RollupFix~31bf3856ad364e35~amd64~~17763.1217.1.7 */
  name: string;
  kb: string;
  /** The build revision the node ran when it was added: a removal goes back to it at the next reboot. */
  revisionBefore: number;
}

/** What a restart applies. */
export type PendingChange =
  | { kind: 'hotfix'; kb: string; revision: number | null }
  | { kind: 'hotfix-removal'; kb: string; revision: number }
  | { kind: 'feature'; name: string }
  | { kind: 'capability'; name: string };

export interface BootState {
  /** `scheduled`: shutdown.exe /r counting down; `down`: rebooting, refusing connections. */
  phase: 'up' | 'scheduled' | 'down';
  /** When the next phase begins (ms since the epoch), for scheduled and down. */
  until: number | null;
}

export interface NodeState {
  version: 1;
  hostname: string;
  os: { caption: string; version: string; build: number; revision: number; lastBootUpTime: string };
  boot: BootState;
  bootCount: number;
  pending: PendingChange[];
  hotfixes: HotfixRecord[];
  /** Known update packages, by lower-cased file name (wherever the file lies on the node). */
  msuCatalogue: Record<string, MsuRecord>;
  /**
   * A knob for tests (lab/windows/README.md, faults): when set, every `dism.exe /add-package` fails
   * with this HRESULT (e.g. -2146498270, 0x800f0922 CBS_E_INSTALLERS_FAILED) and changes nothing.
   */
  failDism: number | null;
  /** Faults armed for the next boot (boot-faults.ts); absent: none. */
  bootFaults?: BootFaults;
  /** Packages DISM added, by lower-cased identity (absent in state files from before removals were modelled). */
  packages?: Record<string, PackageRecord>;
  /**
   * A knob for tests (lab/windows/README.md, faults): the free bytes of C: as Win32_LogicalDisk reports
   * them (surface/disk.ts); absent: DEFAULT_FREE_DISK_BYTES. Writes do not consume it.
   */
  freeDiskBytes?: number;
  features: Record<string, FeatureRecord>;
  capabilities: Record<string, CapabilityRecord>;
  docker: DockerState;
  dockerImages: DockerImageRecord[];
  /** What the reachable registries hold, by full reference (`host[:port]/path:tag`). */
  dockerRegistry: Record<string, RegistryImageRecord>;
  /** daemon.json's insecure-registries as dockerd read them when the docker service last started. */
  dockerLoadedInsecureRegistries: string[];
  /** Where nssm.exe is expected (docs/field-notes.md#d-services-with-nssm, notes B and D: C:\k\nssm.exe). */
  nssmPath: string;
  directories: Record<string, string>;
  files: Record<string, FileRecord>;
  registry: Record<string, RegistryKey>;
  services: Record<string, ServiceRecord>;
  nssm: Record<string, NssmRecord>;
  adapters: NetAdapterRecord[];
  pnpNetDevices: PnpNetDevice[];
  /** Set-DnsClientGlobalSetting -SuffixSearchList (the primary suffix is the registry's NV Domain). */
  dnsSuffixSearchList: string[];
  hns: { networks: HnsNetworkRecord[]; endpoints: HnsEndpointRecord[] };
  firewall: Record<string, FirewallRuleRecord>;
  timeZone: string;
  nextPid: number;
}
