// A fresh simulated Windows Server 2019 node (a test double), as the field notes find one: build
// 17763.973 (docs/field-notes.md#a-network-clean-up-and-nics), no Containers feature, no Docker, no OpenSSH capability (the simulator's own
// SSH endpoint stands outside the model), default NTP and Windows Update settings, two NICs.
import { createHash } from 'node:crypto';
import { bootTime } from './boot.js';
import { makeDirectory, writeFile } from './file-store.js';
import { setValue } from './registry-store.js';
import { daemonInsecureRegistries, serviceRecord } from './services.js';
import type { MsuRecord, NodeState, ServiceRecord } from './node-state.js';
import { filePath } from './win-paths.js';

export const DOWNLOADS = 'C:\\Users\\Administrator\\Downloads';

/** Real KBs of Windows Server 2019 (1809) and one for 1903, which does not apply to 17763. The four
 *  after KB4549949's 1158 (May to August 2020: 17763.1217, .1282, .1339, .1397) are newer pins a
 *  rolling upgrade (play hotfix-windows) moves nodes to. */
export const DEFAULT_MSU: readonly MsuRecord[] = [
  { fileName: 'windows10.0-kb4565349-x64.msu', kb: 'KB4565349', revision: 1397 },
  { fileName: 'windows10.0-kb4558998-x64.msu', kb: 'KB4558998', revision: 1339 },
  { fileName: 'windows10.0-kb4561608-x64.msu', kb: 'KB4561608', revision: 1282 },
  { fileName: 'windows10.0-kb4551853-x64.msu', kb: 'KB4551853', revision: 1217 },
  {
    fileName: 'windows10.0-kb4549949-x64_90e8805e69944530b8d4d4877c7609b9a9e68d81.msu',
    kb: 'KB4549949',
    revision: 1158,
  },
  { fileName: 'windows10.0-kb4538461-x64.msu', kb: 'KB4538461', revision: 1098 },
  { fileName: 'windows10.0-kb4532691-x64.msu', kb: 'KB4532691', revision: 1039 },
  { fileName: 'windows10.0-kb4534273-x64.msu', kb: 'KB4534273', revision: 973 },
  { fileName: 'windows10.0-kb4549951-x64.msu', kb: 'KB4549951', revision: null, notApplicable: true },
];

/**
 * What the registries the node reaches hold: Microsoft's nanoserver of the node's build (HTTPS), and
 * the lab's pause image built FROM it (docs/domain.md#step-10-pause-image) in a plain-HTTP registry, which docker
 * pulls from only when daemon.json lists it in insecure-registries (docs/domain.md#step-5-docker).
 */
export const DEFAULT_REGISTRY: readonly { reference: string; id: string; http: boolean }[] = [
  {
    reference: 'mcr.microsoft.com/windows/nanoserver:10.0.17763.973',
    id: 'sha256:b5e70b774fa4dac4d7b1a87533bebe035eac894952580fee9e4bc2ecca90c5b2',
    http: false,
  },
  {
    reference: 'registry.lab.test:5000/pause:1809',
    id: 'sha256:4eef7cb8e612b454f96a61813c4d6115750d227c03b2711788e1034468da17c9',
    http: true,
  },
];

/** The MAC of a lab node's NIC i (0: eth0, 1: eth1), stable per hostname, in Hyper-V's 00-15-5D range. */
/** The bytes of a simulated .msu in Downloads (expand.exe knows a package by its file name). */
export const msuFileContent = (m: MsuRecord): Buffer => Buffer.from(`MSCF simulated update package ${m.kb}\n`);

export function labMac(hostname: string, i: number): string {
  const h = createHash('sha256').update(hostname.toLowerCase()).digest();
  return ['00', '15', '5D', h[0]!, h[1]!, i + 1]
    .map((x) => (typeof x === 'string' ? x : x.toString(16).padStart(2, '0').toUpperCase()))
    .join('-');
}

/**
 * A state saved by an older simulator: keys it did not have yet take the defaults (adapters were
 * plain names before NICs were modelled).
 */
export function upgradeNodeState(loaded: NodeState): NodeState {
  const fresh = defaultNodeState(loaded.hostname) as unknown as Record<string, unknown>;
  const state = { ...fresh, ...loaded } as NodeState;
  // Updates the simulator learnt since the state was saved are in its catalogue and Downloads too.
  for (const m of DEFAULT_MSU) {
    const key = m.fileName.toLowerCase();
    if (state.msuCatalogue[key]) continue;
    state.msuCatalogue[key] = { ...m };
    writeFile(state, `${DOWNLOADS}\\${m.fileName}`, msuFileContent(m));
  }
  // A docker that was already running loaded the daemon.json of its start: the best guess is today's.
  if (!('dockerLoadedInsecureRegistries' in loaded) && state.services.docker?.state === 'Running') {
    state.dockerLoadedInsecureRegistries = daemonInsecureRegistries(state);
  }
  const adapters = state.adapters as unknown[];
  if (adapters.some((a) => typeof a === 'string')) {
    state.adapters = adapters.map((a, i) =>
      typeof a === 'string'
        ? { ...(fresh.adapters as NodeState['adapters'])[i % 2]!, name: a, macAddress: labMac(loaded.hostname, i) }
        : (a as NodeState['adapters'][number]),
    );
  }
  return state;
}

function service(name: string, displayName: string, binPath: string, more: Partial<ServiceRecord> = {}): ServiceRecord {
  return serviceRecord(name, binPath, { displayName, ...more });
}

// Long (100 lines) because it is data: the services, features and adapters of a fresh Windows Server
// 2019 node as one literal, easier to check against the field notes whole than split into pieces.
export function defaultNodeState(hostname: string, now = new Date()): NodeState {
  const svchost = (group: string) => `C:\\Windows\\system32\\svchost.exe -k ${group}`;
  const services = [
    service('W32Time', 'Windows Time', svchost('LocalService'), {
      type: 'share',
      account: 'NT AUTHORITY\\LocalService',
      startMode: 'Manual',
    }),
    service('wuauserv', 'Windows Update', svchost('netsvcs -p'), { type: 'share', startMode: 'Manual' }),
    service('ssh-agent', 'OpenSSH Authentication Agent', 'C:\\Windows\\System32\\OpenSSH\\ssh-agent.exe', {
      startMode: 'Disabled',
    }),
    service('WinRM', 'Windows Remote Management (WS-Management)', svchost('NetworkService -p'), {
      type: 'share',
      account: 'NT AUTHORITY\\NetworkService',
      startMode: 'Auto',
    }),
  ];
  const s: NodeState = {
    version: 1,
    hostname,
    os: {
      caption: 'Microsoft Windows Server 2019 Datacenter',
      version: '10.0.17763',
      build: 17763,
      revision: 973,
      lastBootUpTime: bootTime(now),
    },
    boot: { phase: 'up', until: null },
    bootCount: 1,
    pending: [],
    hotfixes: [
      { kb: 'KB4523204', installedOn: '2020-01-15' },
      { kb: 'KB4534273', installedOn: '2020-01-15' },
    ],
    msuCatalogue: Object.fromEntries(DEFAULT_MSU.map((m) => [m.fileName.toLowerCase(), { ...m }])),
    failDism: null,
    features: {
      containers: { name: 'Containers', installState: 'Available', restartNeeded: true },
      'hyper-v': { name: 'Hyper-V', installState: 'Available', restartNeeded: true },
      'windows-defender': { name: 'Windows-Defender', installState: 'Installed', restartNeeded: true },
      'telnet-client': { name: 'Telnet-Client', installState: 'Available', restartNeeded: false },
    },
    capabilities: {
      'openssh.server~~~~0.0.1.0': { name: 'OpenSSH.Server~~~~0.0.1.0', state: 'NotPresent', restartNeeded: false },
      'openssh.client~~~~0.0.1.0': { name: 'OpenSSH.Client~~~~0.0.1.0', state: 'Installed', restartNeeded: false },
    },
    docker: { install: 'absent', version: null },
    dockerImages: [],
    dockerRegistry: Object.fromEntries(DEFAULT_REGISTRY.map((i) => [i.reference, { id: i.id, http: i.http }])),
    dockerLoadedInsecureRegistries: [],
    nssmPath: 'C:\\k\\nssm.exe',
    directories: {},
    files: {},
    registry: {},
    services: Object.fromEntries(services.map((x) => [x.name.toLowerCase(), x])),
    nssm: {},
    // Named as a node prepared by field note A would be, on DHCP until a netAdapters step says otherwise.
    adapters: ['eth0', 'eth1'].map((name, i) => ({
      name,
      macAddress: labMac(hostname, i),
      interfaceIndex: 4 + i * 3,
      physical: true,
      dhcp: true,
      ipv4: [],
      gateway: null,
      dnsServers: [],
    })),
    pnpNetDevices: [0, 1].map((i) => ({
      instanceId: `VMBUS\\{${labMac(hostname, i).replace(/-/g, '').toLowerCase()}-0000-0000-0000-000000000000}\\5&${i}`,
      friendlyName: i === 0 ? 'Microsoft Hyper-V Network Adapter' : `Microsoft Hyper-V Network Adapter #${i + 1}`,
      status: 'OK' as const,
    })),
    dnsSuffixSearchList: [],
    hns: { networks: [], endpoints: [] },
    firewall: {
      'winrm-http-in-tcp': {
        name: 'WINRM-HTTP-In-TCP',
        displayName: 'Windows Remote Management (HTTP-In)',
        enabled: true,
        direction: 'Inbound',
        protocol: 'TCP',
        localPort: '5985',
        action: 'Allow',
      },
    },
    timeZone: 'UTC',
    nextPid: 1000,
  };
  for (const dir of ['C:\\Windows\\System32', 'C:\\ProgramData', 'C:\\Program Files', DOWNLOADS])
    makeDirectory(s, filePath(dir));
  for (const m of DEFAULT_MSU) writeFile(s, `${DOWNLOADS}\\${m.fileName}`, msuFileContent(m));

  const servers = 'HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\DateTime\\Servers';
  setValue(s, servers, '(default)', 'String', '1');
  const hosts = ['time.windows.com', 'time-nw.nist.gov', 'time-a.nist.gov', 'time-b.nist.gov', 'time.nist.gov'];
  for (const [i, host] of hosts.entries()) setValue(s, servers, String(i + 1), 'String', host);
  const w32 = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\W32Time\\Parameters';
  setValue(s, w32, 'NtpServer', 'String', 'time.windows.com,0x9');
  setValue(s, w32, 'Type', 'String', 'NTP');
  const tcpip = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';
  setValue(s, tcpip, 'Hostname', 'String', hostname);
  setValue(s, tcpip, 'NV Hostname', 'String', hostname);
  const nt = 'HKLM:\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion';
  setValue(s, nt, 'ProductName', 'String', 'Windows Server 2019 Datacenter');
  setValue(s, nt, 'ReleaseId', 'String', '1809');
  setValue(s, nt, 'CurrentBuild', 'String', '17763');
  setValue(s, nt, 'UBR', 'DWord', 973);
  // Windows Update's policy key exists; NoAutoUpdate and AUOptions are unset until configured.
  setValue(s, 'HKLM:\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate', 'ElevateNonAdmins', 'DWord', 1);
  for (const svc of Object.values(s.services)) {
    if (svc.startMode === 'Auto' || svc.name === 'W32Time') {
      svc.state = 'Running';
      svc.pid = s.nextPid;
      s.nextPid += 4;
      svc.win32ExitCode = 0;
    }
  }
  return s;
}
