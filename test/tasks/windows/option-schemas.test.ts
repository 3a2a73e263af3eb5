// The Windows steps' option schemas, as a user meets them: each wrong option is one message naming
// the step kind and the field (the whole message compared), and good options normalize to the
// desired state compared whole.
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { Secret } from '../../../runner/core/secret.js';
import * as w from '../../../tasks/windows/index.js';

type Factory = (o: any) => { desired: unknown };
const MSU = 'C:\\k\\kb4549949.msu';
const EP = { name: 'cbr0', network: 'l2bridge', addressPrefix: '10.160.11.0/24', ipAddress: '10.160.11.2' };

/** The message a factory throws for these options, or 'no error'. */
function refusal(make: Factory, options: unknown): string {
  try {
    make(options);
    return 'no error';
  } catch (e) {
    if (!(e instanceof StepOptionError)) throw e;
    return e.message;
  }
}

const errors: [Factory, unknown, string][] = [
  [
    w.hotfix,
    { kb: 'x', msuPath: MSU, restart: true },
    "windows.hotfix: option 'restart' is not an option of windows.hotfix (known: kb, msuPath, localMsu, notApplicable)",
  ],
  [
    w.hotfix,
    { kb: 'KB123', msuPath: MSU },
    `windows.hotfix: option 'kb' must be a KB number such as KB4549949, got "KB123"`,
  ],
  [w.hotfix, { kb: 4549949, msuPath: MSU }, "windows.hotfix: option 'kb' must be a string, got number 4549949"],
  [
    w.hotfix,
    { kb: 'KB4549949', msuPath: MSU, notApplicable: 5 },
    "windows.hotfix: option 'notApplicable' must be 'fail' or 'satisfied', got number 5",
  ],
  [
    w.hotfixStage,
    { kb: 'KB4549949', msuPath: MSU, stageDir: 'C:\\k\\..\\s' },
    `windows.hotfixStage: option 'stageDir' must not contain '.' or '..' parts, got "C:\\\\k\\\\..\\\\s"`,
  ],
  [
    w.uploadedFile,
    { localFile: '/nonexistent/play.msu', path: MSU },
    "windows.uploadedFile: option 'localFile' cannot read /nonexistent/play.msu (ENOENT)",
  ],
  [
    w.firewallRule,
    { name: 'sshd', protocol: 'TCP', localPort: 22, direction: 'In' },
    `windows.firewallRule: option 'direction' must be 'Inbound' or 'Outbound', got "In"`,
  ],
  [
    w.registryValue,
    { path: 'HKLM:\\X', name: 'a', type: 'String' },
    "windows.registryValue: option 'data' must be a string without NUL for type String, got nothing",
  ],
  [
    w.registryValue,
    { path: 'HKLM:\\X', name: 'a\nb', type: 'String', data: 'x' },
    "windows.registryValue: option 'name' must not contain a line break or NUL",
  ],
  [
    w.dockerDaemonConfig,
    { config: { 'insecure-registries': ['a', undefined] } },
    "windows.dockerDaemonConfig: option 'config.insecure-registries[1]' must be a JSON value (string, number, boolean, null, array or plain object), got undefined",
  ],
  [
    w.fileContent,
    { path: 'C:\\k\\a.json', template: '{{ v }}', vars: { v: new Secret('{"a": hunter2', 'env:V') }, format: 'json' },
    "windows.fileContent: option 'content' is not valid JSON (format 'json'): the secret does not parse",
  ],
  [
    w.fileContent,
    { path: 'C:\\k\\a', template: '{{ v }}' },
    "windows.fileContent: option 'vars' has no value for {{ v }}, which the template uses",
  ],
  [
    w.fileContent,
    { path: 'C:\\k\\a', template: '{{ v }}', vars: { v: null } },
    "windows.fileContent: option 'vars.v' must be a string, number, boolean or secret, got null",
  ],
  [
    w.netAdapters,
    { adapters: [{ mac: '00-15-5D-00-00-01', speed: 1 }] },
    "windows.netAdapters: option 'adapters[0].speed' is not an adapter option (mac, name, ipv4, gateway, dnsServers)",
  ],
  [
    w.netAdapters,
    { adapters: ['00-15-5D-00-00-01'] },
    "windows.netAdapters: option 'adapters[0]' must be an object { mac, name?, ipv4?, gateway?, dnsServers? }",
  ],
  [
    w.netAdapters,
    { adapters: [{ mac: '00-15-5D-00-00-01', ipv4: ['10.0.0.5/24', '10.0.1.0/24'] }] },
    `windows.netAdapters: option 'adapters[0].ipv4[1]' must be a host address with its prefix length such as 100.100.126.216/23, got "10.0.1.0/24"`,
  ],
  [
    w.hnsHostEndpoint,
    { ...EP, gateway: '10.160.11.255' },
    "windows.hnsHostEndpoint: option 'gateway' 10.160.11.255 is the broadcast address of 10.160.11.0/24, not a host address",
  ],
  [
    w.hnsNetwork,
    {
      name: 'l2bridge',
      type: 'L2Bridge',
      addressPrefix: '10.160.11.0/31',
      gateway: '10.160.11.1',
      adapterName: 'eth1',
    },
    "windows.hnsNetwork: option 'addressPrefix' must leave room for a gateway and endpoints (a prefix of /30 or shorter), got /31",
  ],
  [
    w.windowsService,
    { name: 'kubelet', binPath: 'C:\\k\\kubelet.exe', dependencies: ['docker', 'kube let'] },
    `windows.service: option 'dependencies[1]' must be a service name, got "kube let"`,
  ],
  [
    w.command,
    { exe: 'C:\\k\\tool.exe', args: ['a', 5] },
    "windows.command: option 'args[1]' must be a string, got number",
  ],
  [
    w.powershell,
    { script: 'param($P)', parameters: { P: { a: 1 } } },
    "windows.powershell: option 'parameters.P' must be a string, number, boolean, null or a list of strings",
  ],
  [
    w.powershell,
    { script: 'x', changedWhen: true },
    "windows.powershell: option 'changedWhen' must be a function of the result returning true or false, got boolean",
  ],
  [
    w.dnsClient,
    { suffixSearchList: [] },
    "windows.dnsClient: option 'suffixSearchList' must be a non-empty list of DNS domains",
  ],
  [
    w.networkCleanup,
    { token: 'x'.repeat(201) },
    "windows.networkCleanup: option 'token' must be at most 200 characters (it is recorded in the registry)",
  ],
  [
    w.reboot,
    { required: true, timeoutSec: 7201 },
    "windows.reboot: option 'timeoutSec' must be at most 7200, got 7201",
  ],
  [
    w.nssmService,
    { name: 'kubelet', application: 'C:\\k\\kubelet.exe', appParameters: 'a\r\nb' },
    "windows.nssmService: option 'appParameters' must be one line (no line break or NUL)",
  ],
  [w.osBuild, { version: '10.0.17763', revision: -1 }, "windows.osBuild: option 'revision' must be at least 0, got -1"],
  [w.autoUpdate, { enabled: 'no' }, `windows.autoUpdate: option 'enabled' must be true or false, got the string "no"`],
];

test('every wrong option is one message naming the step kind and the field', (t) => {
  t.deepEqual(
    errors.map(([make, options]) => refusal(make, options)),
    errors.map(([, , message]) => message),
  );
});

test('good options normalize to the desired state', (t) => {
  const secret = new Secret('hunter2', 'env:SVC_PASSWORD');
  t.deepEqual(
    [
      w.hotfixStage({ kb: 'kb4549949', msuPath: 'c:/k/KB4549949.MSU' }).desired,
      w.windowsService({ name: 'kube-proxy', binPath: 'C:\\k\\kube-proxy.exe', account: 'x', password: secret })
        .desired,
      w.command({ exe: 'c:/k/tool.exe', creates: 'c:/k/done' }).desired,
      w.powershell({ script: 'param($Name) $Name', parameters: { Name: 'a' } }).desired,
      w.netAdapters({ adapters: [{ mac: '00155d0a0b0c', ipv4: '10.0.0.5/24', gateway: '10.0.0.1' }] }).desired,
      w.dnsClient({ primaryDomain: 'MyLan.K8s' }).desired,
      w.networkCleanup({ token: '2020-05-08' }).desired,
      w.hotfixRemoval({ kb: 'kb4549949' }).desired,
      w.dockerImage({ reference: 'nanoserver:1809' }).desired,
      w.nssmService({ name: 'flanneld', application: 'c:/flannel/flanneld.exe', appParameters: '' }).desired,
      w.hnsNetwork({
        name: 'l2bridge',
        type: 'L2Bridge',
        addressPrefix: '10.160.11.0/24',
        gateway: '10.160.11.1',
        adapterName: 'eth1',
      }).desired,
    ],
    [
      { kb: 'KB4549949', msuPath: 'C:\\k\\KB4549949.MSU', localMsu: null, stageDir: 'C:\\k\\play-stage-KB4549949' },
      { name: 'kube-proxy', binPath: 'C:\\k\\kube-proxy.exe', account: 'x', password: secret, restart: false },
      { exe: 'C:\\k\\tool.exe', args: [], creates: 'C:\\k\\done' },
      { script: 'param($Name) $Name', parameters: { Name: 'a' } },
      { adapters: [{ mac: '00-15-5D-0A-0B-0C', ipv4: ['10.0.0.5/24'], gateway: '10.0.0.1' }] },
      { primaryDomain: 'mylan.k8s' },
      { token: '2020-05-08', removeHnsNetworks: true, removeGhostAdapters: true },
      { kb: 'KB4549949', packageName: null },
      { reference: 'nanoserver:1809' },
      { name: 'flanneld', application: 'C:\\flannel\\flanneld.exe', appParameters: '' },
      {
        name: 'l2bridge',
        type: 'L2Bridge',
        addressPrefix: '10.160.11.0/24',
        gateway: '10.160.11.1',
        adapterName: 'eth1',
        allowReplace: false,
      },
    ],
  );
});

test('the desired state is frozen, its lists too', (t) => {
  const nics = w.netAdapters({ adapters: [{ mac: '00-15-5D-00-00-01', dnsServers: ['10.0.0.1'] }] }).desired;
  const service = w.windowsService({ name: 'kubelet', binPath: 'C:\\k\\kubelet.exe', dependencies: ['docker'] });
  t.deepEqual(
    [nics, nics.adapters, nics.adapters[0], nics.adapters[0]!.dnsServers, service.desired.dependencies].map((x) =>
      Object.isFrozen(x),
    ),
    [true, true, true, true, true],
  );
});
