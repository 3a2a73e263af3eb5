// A small in-test model of a Windows node answering the contract's functions (a test double for
// the steps' local half; the simulated node in lab/windows/ is the full one). Services answer with
// sc.exe's text in the exact layout of docs/field-notes.md#b-sc-qc-and-nssm-get, so the parsers are exercised on the way.
import { createHash } from 'node:crypto';
import type { Handlers } from './fake-node.js';
import { fixture } from './fixtures.js';

export interface Svc {
  name: string;
  binPath: string;
  displayName: string;
  start: 'AUTO_START' | 'DEMAND_START' | 'DISABLED';
  deps: string[];
  account: string;
  state: 'RUNNING' | 'STOPPED';
  pid: number;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const field = (key: string, value: string) => `        ${key.padEnd(19)}: ${value}`.replace(/ +$/, '');

export function qcText(s: Svc): string {
  const code = { AUTO_START: 2, DEMAND_START: 3, DISABLED: 4 }[s.start];
  const deps = s.deps.length
    ? [field('DEPENDENCIES', s.deps[0]!), ...s.deps.slice(1).map((d) => `${' '.repeat(27)}: ${d}`)]
    : [field('DEPENDENCIES', '')];
  return [
    '[SC] QueryServiceConfig SUCCESS',
    '',
    `SERVICE_NAME: ${s.name}`,
    field('TYPE', '10  WIN32_OWN_PROCESS'),
    field('START_TYPE', `${code}   ${s.start}`),
    field('ERROR_CONTROL', '1   NORMAL'),
    field('BINARY_PATH_NAME', s.binPath),
    field('LOAD_ORDER_GROUP', ''),
    field('TAG', '0'),
    field('DISPLAY_NAME', s.displayName),
    ...deps,
    field('SERVICE_START_NAME', s.account),
    '',
  ].join('\r\n');
}

export function queryexText(s: Svc): string {
  const running = s.state === 'RUNNING';
  return [
    '',
    `SERVICE_NAME: ${s.name}`,
    field('TYPE', '10  WIN32_OWN_PROCESS'),
    field('STATE', running ? '4  RUNNING' : '1  STOPPED'),
    `${' '.repeat(32)}(${running ? 'STOPPABLE, NOT_PAUSABLE, ACCEPTS_SHUTDOWN' : 'NOT_STOPPABLE, NOT_PAUSABLE, IGNORES_SHUTDOWN'})`,
    field('WIN32_EXIT_CODE', '0  (0x0)'),
    field('SERVICE_EXIT_CODE', '0  (0x0)'),
    field('CHECKPOINT', '0x0'),
    field('WAIT_HINT', '0x0'),
    field('PID', String(running ? s.pid : 0)),
    field('FLAGS', ''),
    '',
  ].join('\r\n');
}

export class WindowsModel {
  os = {
    caption: 'Microsoft Windows Server 2019 Datacenter',
    version: '10.0.17763',
    build: 17763,
    revision: 973,
    lastBootUpTime: '2020-05-08T00:36:41.0000000Z',
    pendingReboot: false,
  };
  hotfixes = new Set<string>();
  wusaRecords = new Map<string, number>();
  /** What wusa returns for a KB: its exit code and whether Get-HotFix lists the KB afterwards. */
  wusa: (kb: string) => { exitCode: number; lists: boolean } = () => ({ exitCode: 0, lists: true });
  files = new Map<string, Buffer>();
  features = new Map<string, string>();
  capabilities = new Map<string, string>();
  docker = { text: null as string | null, serviceExists: false };
  dockerAfterInstall = { text: '', restartNeeded: true };
  /** Local images (reference -> id), whether the daemon answers, and what the registry holds (reference -> id). */
  images = new Map<string, string>();
  dockerRunning = true;
  registryImages = new Map<string, string>();
  registry = new Map<string, { type: string; data: unknown }>();
  services = new Map<string, Svc>();
  nssm = new Map<
    string,
    { Application: string; AppParameters: string; AppDirectory: string; DependOnService: string[] }
  >();
  networks = new Map<
    string,
    { id: string; name: string; type: string; addressPrefix: string; gateway: string; adapterName: string }
  >();
  endpoints = new Map<
    string,
    {
      id: string;
      name: string;
      networkName: string;
      ipAddress: string;
      gateway: string;
      compartmentId: number | null;
      forwarding: boolean;
    }
  >();
  firewall = new Map<string, Record<string, unknown>>();
  timeZone = 'Pacific Standard Time';
  ntp = {
    servers: ['time.windows.com'],
    defaultIndex: '1' as string | null,
    manualPeerList: 'time.windows.com,0x9',
    syncFromFlags: 'NT5DS',
    w32timeStartMode: 'Manual',
  };
  au = { noAutoUpdate: null as number | null, auOptions: 4 as number | null };
  nics = new Map<
    string,
    { name: string; ipInterface: string; dhcp: boolean; ipv4: string[]; gateway: string | null; dnsServers: string[] }
  >();
  dns = { primaryDomain: null as string | null, suffixSearchList: [] as string[] };
  cleanup = {
    token: null as string | null,
    bootTime: null as string | null,
    ghosts: [] as { instanceId: string; friendlyName: string }[],
  };
  #ids = 0;
  nextPid = 5000;

  id(): string {
    return `00000000-0000-4000-8000-${String(++this.#ids).padStart(12, '0')}`;
  }

  service(name: string): Svc {
    const s = this.services.get(name.toLowerCase());
    if (!s)
      throw new Error(`[SC] OpenService FAILED 1060:\n\nThe specified service does not exist as an installed service.`);
    return s;
  }

  dependents(name: string): Svc[] {
    const direct = [...this.services.values()].filter((s) =>
      s.deps.some((d) => d.toLowerCase() === name.toLowerCase()),
    );
    return direct.flatMap((d) => [...this.dependents(d.name), d]);
  }

  handlers(): Handlers {
    return {
      'Get-PlayOsInfo': () => ({ ...this.os }),
      'Restart-PlayComputer': () => ({ scheduled: true }),
      'Test-PlayPath': (a) => ({ exists: this.files.has(a.path.toLowerCase()), isDirectory: false }),
      'Get-PlayHotfix': (a) => ({
        installed: this.hotfixes.has(a.kb),
        installedOn: this.hotfixes.has(a.kb) ? '2020-05-08' : null,
        wusaExitCode: this.wusaRecords.get(a.kb) ?? null,
        msuPresent: a.msuPath === undefined ? null : this.files.has(a.msuPath.toLowerCase()),
      }),
      'Install-PlayHotfix': (a) => {
        if (!this.files.has(a.msuPath.toLowerCase()))
          throw new Error(`the update package ${a.msuPath} does not exist on the host`);
        const r = this.wusa(a.kb);
        if (r.lists) this.hotfixes.add(a.kb);
        this.wusaRecords.set(a.kb, r.exitCode);
        return { exitCode: r.exitCode };
      },
      'Get-PlayWindowsFeature': (a) =>
        this.features.has(a.name) ? { name: a.name, installState: this.features.get(a.name) } : null,
      'Install-PlayWindowsFeature': (a) => {
        this.features.set(a.name, 'InstallPending');
        return { restartNeeded: true };
      },
      'Get-PlayWindowsCapability': (a) =>
        this.capabilities.has(a.name) ? { name: a.name, state: this.capabilities.get(a.name) } : null,
      'Add-PlayWindowsCapability': (a) => {
        this.capabilities.set(a.name, 'Installed');
        return { restartNeeded: false };
      },
      'Get-PlayDockerEngine': () => ({ dockerVersion: this.docker.text, serviceExists: this.docker.serviceExists }),
      'Install-PlayDockerEngine': () => {
        this.docker = { text: this.dockerAfterInstall.text, serviceExists: true };
        return { restartNeeded: this.dockerAfterInstall.restartNeeded };
      },
      'Get-PlayDockerImage': (a) => {
        const id = this.dockerRunning ? this.images.get(a.reference) : undefined;
        return { daemonRunning: this.dockerRunning, image: id === undefined ? null : { id, repoTags: [a.reference] } };
      },
      'Invoke-PlayDockerPull': (a) => {
        if (!this.dockerRunning)
          throw new Error(
            fixture('docker-error-during-connect.txt')
              .trim()
              .replace(/Get (\S+)\/version:/, 'Post $1/images/create:'),
          );
        const id = this.registryImages.get(a.reference);
        if (id === undefined)
          throw new Error(
            `Error response from daemon: manifest for ${a.reference} not found: manifest unknown: manifest unknown`,
          );
        this.images.set(a.reference, id);
        return { id };
      },
      'Get-PlayFile': (a) => {
        const b = this.files.get(a.path.toLowerCase());
        return b === undefined
          ? null
          : { sha256: sha(b), size: b.length, contentBase64: b.length <= a.maxBytes ? b.toString('base64') : null };
      },
      'Set-PlayFile': (a) => {
        const cur = this.files.get(a.path.toLowerCase());
        if ((cur === undefined ? null : sha(cur)) !== a.expectedSha256)
          throw new Error(`${a.path} changed since it was probed: not overwritten`);
        const b = Buffer.from(a.contentBase64, 'base64');
        this.files.set(a.path.toLowerCase(), b);
        return { sha256: sha(b) };
      },
      'Get-PlayRegistryValue': (a) => this.registry.get(`${a.path}|${a.name}`.toLowerCase()) ?? null,
      'Set-PlayRegistryValue': (a) => {
        this.registry.set(`${a.path}|${a.name}`.toLowerCase(), { type: a.type, data: a.data });
        return {};
      },
      'Get-PlayService': (a) => {
        const s = this.services.get(a.name.toLowerCase());
        return s
          ? { qc: qcText(s), queryex: queryexText(s), dependents: this.dependents(s.name).map((d) => d.name) }
          : null;
      },
      'Set-PlayService': (a) => {
        if (a.create) {
          if (this.services.has(a.name.toLowerCase()))
            throw new Error('[SC] CreateService FAILED 1073:\n\nThe specified service already exists.');
          this.services.set(a.name.toLowerCase(), {
            name: a.name,
            binPath: a.binPath,
            displayName: a.name,
            start: 'DEMAND_START',
            deps: [],
            account: 'LocalSystem',
            state: 'STOPPED',
            pid: 0,
          });
        }
        const s = this.service(a.name);
        if (a.binPath !== undefined) s.binPath = a.binPath;
        if (a.displayName !== undefined) s.displayName = a.displayName;
        if (a.startMode !== undefined)
          s.start = ({ Auto: 'AUTO_START', Manual: 'DEMAND_START', Disabled: 'DISABLED' } as const)[
            a.startMode as 'Auto'
          ];
        if (a.dependencies !== undefined) s.deps = a.dependencies;
        if (a.account !== undefined) s.account = a.account;
        return {};
      },
      'Set-PlayServiceState': (a) => {
        const s = this.service(a.name);
        const start = (x: Svc) => {
          if (x.state !== 'RUNNING') {
            x.state = 'RUNNING';
            x.pid = this.nextPid++;
          }
        };
        const running = this.dependents(s.name).filter((d) => d.state === 'RUNNING');
        const restarted: string[] = [];
        if (a.action === 'start') start(s);
        if (a.action === 'stop') {
          if (running.length)
            throw new Error(
              `${s.name} cannot be stopped while services that depend on it run: ${running.map((d) => d.name).join(', ')} (stop them first)`,
            );
          s.state = 'STOPPED';
        }
        if (a.action === 'restart') {
          for (const d of running) d.state = 'STOPPED';
          s.state = 'STOPPED';
          start(s);
          for (const d of [...running].reverse()) {
            start(d);
            restarted.push(d.name);
          }
        }
        return {
          state: s.state === 'RUNNING' ? 'Running' : 'Stopped',
          pid: s.state === 'RUNNING' ? s.pid : 0,
          restartedDependents: restarted,
        };
      },
      'Get-PlayNssmService': (a) => {
        const n = this.nssm.get(a.name);
        return n ? { ...n, DependOnService: n.DependOnService.map((d) => `${d}\r\n`).join('') } : null;
      },
      'Set-PlayNssmService': (a) => {
        if (a.install)
          this.nssm.set(a.name, {
            Application: a.application,
            AppParameters: '',
            AppDirectory: '',
            DependOnService: [],
          });
        const n = this.nssm.get(a.name);
        if (!n) throw new Error(`Can't open service!`);
        if (a.application !== undefined) n.Application = a.application;
        if (a.appParameters !== undefined) n.AppParameters = a.appParameters;
        if (a.appDirectory !== undefined) n.AppDirectory = a.appDirectory;
        if (a.dependOnService !== undefined) n.DependOnService = a.dependOnService;
        return {};
      },
      'Get-PlayHnsNetwork': (a) => this.networks.get(a.name) ?? null,
      'New-PlayHnsNetwork': (a) => {
        const id = this.id();
        this.networks.set(a.name, { id, ...a });
        return { id };
      },
      'Remove-PlayHnsNetwork': (a) => {
        this.networks.delete(a.name);
        return {};
      },
      'Get-PlayHnsEndpoint': (a) => this.endpoints.get(a.name) ?? null,
      'New-PlayHnsEndpoint': (a) => {
        if (!this.networks.has(a.networkName)) throw new Error(`there is no HNS network named ${a.networkName}`);
        const id = this.id();
        this.endpoints.set(a.name, {
          id,
          name: a.name,
          networkName: a.networkName,
          ipAddress: a.ipAddress,
          gateway: a.gateway,
          compartmentId: null,
          forwarding: false,
        });
        return { id };
      },
      'Remove-PlayHnsEndpoint': (a) => {
        this.endpoints.delete(a.name);
        return {};
      },
      'Set-PlayHnsEndpointHost': (a) => {
        const e = this.endpoints.get(a.name);
        if (!e) throw new Error(`there is no HNS endpoint named ${a.name}`);
        e.compartmentId = a.compartmentId;
        e.forwarding = a.forwarding;
        return {};
      },
      'Get-PlayFirewallRule': (a) => this.firewall.get(a.name) ?? null,
      'Set-PlayFirewallRule': (a) => {
        this.firewall.set(a.name, { ...a });
        return {};
      },
      'Get-PlayTimeZone': () => ({ id: this.timeZone }),
      'Set-PlayTimeZone': (a) => {
        this.timeZone = a.id;
        return {};
      },
      'Get-PlayNtp': () => ({ ...this.ntp, servers: [...this.ntp.servers] }),
      'Set-PlayNtp': (a) => {
        this.ntp = {
          servers: a.servers,
          defaultIndex: '1',
          manualPeerList: a.servers.join(' '),
          syncFromFlags: 'NTP',
          w32timeStartMode: 'Auto',
        };
        return {};
      },
      'Get-PlayAutoUpdate': () => ({ ...this.au }),
      'Set-PlayAutoUpdate': (a) => {
        this.au.noAutoUpdate = a.enabled ? 0 : 1;
        return {};
      },
      'Get-PlayNetAdapters': (a) => ({
        adapters: (a.macAddresses as string[]).flatMap((mac) => {
          const n = this.nics.get(mac);
          return n
            ? [{ macAddress: mac, interfaceIndex: 4, ...n, ipv4: [...n.ipv4], dnsServers: [...n.dnsServers] }]
            : [];
        }),
      }),
      'Set-PlayNetAdapter': (a) => {
        const n = this.nics.get(a.macAddress);
        if (!n) throw new Error(`there is no physical network adapter with MAC address ${a.macAddress}`);
        if (a.dnsServers) n.dnsServers = [...a.dnsServers];
        if (a.ipv4) {
          n.dhcp = false;
          n.ipv4 = [...a.ipv4];
        }
        if (a.gateway !== undefined) n.gateway = a.gateway;
        if (a.newName !== undefined) {
          if (n.ipInterface === n.name) n.ipInterface = a.newName;
          n.name = a.newName;
        }
        return {};
      },
      'Get-PlayDnsClient': () => ({ ...this.dns, suffixSearchList: [...this.dns.suffixSearchList] }),
      'Set-PlayDnsClient': (a) => {
        if (a.primaryDomain !== undefined) this.dns.primaryDomain = a.primaryDomain;
        if (a.suffixSearchList !== undefined) this.dns.suffixSearchList = [...a.suffixSearchList];
        return {};
      },
      'Get-PlayNetworkCleanup': () => ({
        token: this.cleanup.token,
        rebootPending: this.cleanup.token !== null && this.cleanup.bootTime === this.os.lastBootUpTime,
        hnsNetworks: [...this.networks.keys()],
        ghostAdapters: this.cleanup.ghosts.map((g) => ({ ...g })),
      }),
      'Invoke-PlayNetworkCleanup': (a) => {
        const removedNetworks = a.removeHnsNetworks ? [...this.networks.keys()] : [];
        if (a.removeHnsNetworks) {
          this.networks.clear();
          this.endpoints.clear();
        }
        const removedAdapters = a.removeGhostAdapters ? this.cleanup.ghosts.map((g) => g.instanceId) : [];
        if (a.removeGhostAdapters) this.cleanup.ghosts = [];
        Object.assign(this.cleanup, { token: a.token, bootTime: this.os.lastBootUpTime });
        return { removedNetworks, removedAdapters };
      },
    };
  }
}
