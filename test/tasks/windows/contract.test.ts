// The contract's schemas at run time (tasks/windows/remote/contract.ts, validate.ts): a step's call whose
// arguments do not fit fails before it leaves, in one line naming the function, the argument and
// what it must be; a result that does not fit fails in probeCall's parse and in invoke alike, naming
// the function, the field and the value. Messages are compared whole: they are what a person reads.
import test from 'ava';
import { Secret, isSecret } from '../../../runner/core/secret.js';
import type { ExecResult, Remote } from '../../../runner/core/step.js';
import { call, invoke, probeCall, type PlayFunction } from '../../../tasks/windows/remote/calls.js';
import {
  CONTRACT,
  type PlayFunctionName,
  validateArgs,
  validateResult,
} from '../../../tasks/windows/remote/contract.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';

const fn = (name: PlayFunctionName): PlayFunction => PLAY_FUNCTIONS[name];
/** A call as a buggy step would make it: the compiler would refuse these arguments. */
const callWith = (name: PlayFunctionName, args: unknown) => call(fn(name), args as never);
const secret = () => new Secret('hunter2-secret', 'env:PLAY_TEST_PASSWORD');

const SERVICE_ARGS = 'name, create, binPath, displayName, startMode, dependencies, account, password';

const badArgs: { kind: string; fn: PlayFunctionName; args: unknown; message: string }[] = [
  {
    kind: 'bad enum',
    fn: 'Set-PlayService',
    args: { name: 'kubelet', create: false, startMode: 'Automatic' },
    message: 'Set-PlayService: argument startMode must be one of Auto, Manual, Disabled, got "Automatic"',
  },
  {
    kind: 'wrong type',
    fn: 'Set-PlayService',
    args: { name: 'kubelet', create: 'yes' },
    message: 'Set-PlayService: argument create must be true or false, got "yes"',
  },
  {
    kind: 'wrong type in a list',
    fn: 'Set-PlayService',
    args: { name: 'kubelet', create: false, dependencies: ['docker', 5] },
    message: 'Set-PlayService: argument dependencies[1] must be a string, got 5',
  },
  {
    kind: 'wrong type: a list expected',
    fn: 'Set-PlayNtp',
    args: { servers: 'ntp1.mylan.k8s' },
    message: 'Set-PlayNtp: argument servers must be a list of strings, got "ntp1.mylan.k8s"',
  },
  {
    kind: 'unknown field',
    fn: 'Set-PlayService',
    args: { name: 'kubelet', create: false, startmode: 'Auto' },
    message: `Set-PlayService: argument startmode is unknown (known: ${SERVICE_ARGS})`,
  },
  {
    kind: 'unknown field of a function without arguments',
    fn: 'Get-PlayOsInfo',
    args: { verbose: true },
    message: 'Get-PlayOsInfo: argument verbose is unknown (Get-PlayOsInfo takes none)',
  },
  {
    kind: 'missing field',
    fn: 'Set-PlayService',
    args: { name: 'kubelet' },
    message: 'Set-PlayService: argument create must be true or false, got nothing',
  },
  {
    kind: 'missing nullable field (null must be said)',
    fn: 'Set-PlayFile',
    args: { path: 'C:\\k\\a.txt', contentBase64: '' },
    message: 'Set-PlayFile: argument expectedSha256 must be a string or null, got nothing',
  },
  {
    kind: 'null where not nullable',
    fn: 'Test-PlayPath',
    args: { path: null },
    message: 'Test-PlayPath: argument path must be a string, got null',
  },
  {
    kind: 'bad literal',
    fn: 'New-PlayHnsNetwork',
    args: {
      name: 'l2bridge',
      type: 'Overlay',
      addressPrefix: '10.160.11.0/24',
      gateway: '10.160.11.1',
      adapterName: 'eth1',
    },
    message: 'New-PlayHnsNetwork: argument type must be "L2Bridge", got "Overlay"',
  },
  {
    kind: 'no member of a union',
    fn: 'Set-PlayRegistryValue',
    args: { path: 'HKLM:\\SOFTWARE\\Play', name: 'x', type: 'DWord', data: true },
    message: 'Set-PlayRegistryValue: argument data must be a string, a number or a list of strings, got true',
  },
  {
    kind: 'a Secret where no string may stand',
    fn: 'Set-PlayService',
    args: { name: 'kubelet', create: secret() },
    message: 'Set-PlayService: argument create must be true or false, got a secret',
  },
  {
    kind: 'not an object',
    fn: 'Test-PlayPath',
    args: null,
    message: 'Test-PlayPath: the arguments must be an object, got null',
  },
  {
    kind: 'several at once',
    fn: 'Set-PlayServiceState',
    args: { action: 'reload', force: true },
    message:
      'Set-PlayServiceState: argument name must be a string, got nothing; argument action must be one of start, stop, restart, got "reload"; argument force is unknown (known: name, action)',
  },
];

for (const row of badArgs) {
  test(`arguments, ${row.kind}: ${row.fn}`, (t) => {
    t.throws(() => callWith(row.fn, row.args), { instanceOf: Error, message: row.message });
    t.throws(() => validateArgs(row.fn, row.args), { instanceOf: Error, message: row.message });
  });
}

test('arguments: a Secret stands where a string may, and goes on unrevealed', (t) => {
  const password = secret();
  const c = callWith('Set-PlayService', { name: 'kubelet', create: false, account: 'svc', password });
  t.is(c.args.password, password);
  t.true(isSecret(c.args.password));
  const dependency = secret();
  const d = callWith('Set-PlayService', { name: 'kubelet', create: false, dependencies: ['docker', dependency] });
  t.is((d.args.dependencies as unknown[])[1], dependency);
});

test('arguments: optional fields may be left out or undefined; an unknown function is named', (t) => {
  t.notThrows(() => callWith('Get-PlayHotfix', { kb: 'KB4549949' }));
  t.notThrows(() => callWith('Set-PlayService', { name: 'kubelet', create: false, binPath: undefined }));
  t.throws(() => validateArgs('Get-PlayNothing' as PlayFunctionName, {}), {
    message: 'Get-PlayNothing is not a function of the Windows contract',
  });
});

const OS = {
  caption: 'Microsoft Windows Server 2019 Datacenter',
  version: '10.0.17763',
  build: 17763,
  revision: 973,
  lastBootUpTime: '2020-05-08T00:36:41.0000000Z',
  pendingReboot: false,
};
const NIC = {
  macAddress: '00-15-5D-00-00-01',
  name: 'eth0',
  interfaceIndex: 4,
  ipInterface: 'eth0',
  dhcp: false,
  ipv4: ['10.160.10.9/24'],
  gateway: '10.160.10.1',
  dnsServers: [],
};

const badResults: { kind: string; fn: PlayFunctionName; args: unknown; value: unknown; message: string }[] = [
  {
    kind: 'misspelt property',
    fn: 'Get-PlayOsInfo',
    args: {},
    value: { ...OS, pendingReboot: undefined, pendingReboots: true },
    message:
      'Get-PlayOsInfo returned pendingReboot = nothing, expected true or false; an unknown field pendingReboots = true',
  },
  {
    kind: 'wrong type',
    fn: 'Get-PlayOsInfo',
    args: {},
    value: { ...OS, build: '17763' },
    message: 'Get-PlayOsInfo returned build = "17763", expected a number',
  },
  {
    kind: 'null where not nullable (the whole result)',
    fn: 'Get-PlayOsInfo',
    args: {},
    value: null,
    message: 'Get-PlayOsInfo returned null, expected an object',
  },
  {
    kind: 'null where not nullable (a field)',
    fn: 'Get-PlayHnsEndpoint',
    args: { name: 'cbr0' },
    value: {
      id: 'e1',
      name: 'cbr0',
      networkName: 'l2bridge',
      ipAddress: '10.160.11.2',
      gateway: '',
      compartmentId: null,
      forwarding: null,
    },
    message: 'Get-PlayHnsEndpoint returned forwarding = null, expected true or false',
  },
  {
    kind: 'null where not nullable (nested)',
    fn: 'Get-PlayDockerImage',
    args: { reference: 'mcr.microsoft.com/k8s/core/pause:1.2.0' },
    value: { daemonRunning: true, image: { id: null, repoTags: [] } },
    message: 'Get-PlayDockerImage returned image.id = null, expected a string',
  },
  {
    kind: 'bad enum',
    fn: 'Set-PlayServiceState',
    args: { name: 'kubelet', action: 'start' },
    value: { state: 'ContinuePending', pid: 4044, restartedDependents: [] },
    message:
      'Set-PlayServiceState returned state = "ContinuePending", expected one of Running, Stopped, StartPending, StopPending, Paused',
  },
  {
    kind: 'wrong type deep in a list',
    fn: 'Get-PlayNetAdapters',
    args: { macAddresses: ['00-15-5D-00-00-01'] },
    value: { adapters: [{ ...NIC, ipv4: ['10.160.10.9/24', 5] }] },
    message: 'Get-PlayNetAdapters returned adapters[0].ipv4[1] = 5, expected a string',
  },
  {
    kind: 'misspelt property in a list',
    fn: 'Get-PlayNetworkCleanup',
    args: {},
    value: {
      token: null,
      rebootPending: false,
      hnsNetworks: [],
      ghostAdapters: [{ instanceId: 'x', friendlyname: 'y' }],
    },
    message:
      'Get-PlayNetworkCleanup returned ghostAdapters[0].friendlyName = nothing, expected a string; an unknown field ghostAdapters[0].friendlyname = "y"',
  },
  {
    kind: 'stray pipeline output around an action result',
    fn: 'Set-PlayTimeZone',
    args: { id: 'UTC' },
    value: ['True', {}],
    message: 'Set-PlayTimeZone returned ["True",{}], expected an object',
  },
  {
    kind: 'wrong type: a nullable field, a long value cut',
    fn: 'Get-PlayDockerEngine',
    args: {},
    value: { dockerVersion: { Client: 'x'.repeat(100) }, serviceExists: true },
    message: `Get-PlayDockerEngine returned dockerVersion = {"Client":"${'x'.repeat(66)}..., expected a string or null`,
  },
  {
    kind: 'a list missing (only null and a lone item stand for a list)',
    fn: 'Get-PlayService',
    args: { name: 'kubelet' },
    value: { qc: '', queryex: '' },
    message: 'Get-PlayService returned dependents = nothing, expected a list of strings',
  },
  {
    kind: 'many at once',
    fn: 'Get-PlayOsInfo',
    args: {},
    value: {},
    message:
      'Get-PlayOsInfo returned caption = nothing, expected a string; version = nothing, expected a string; build = nothing, expected a number; and 3 more',
  },
];

const output = (value: unknown): ExecResult => ({ stdout: JSON.stringify(value), stderr: '', code: 0 });
/** A host whose every call returns `value`, of whatever shape: the simulated node checks its own results, so it cannot send a wrong one. */
const answering = (value: unknown): Remote => ({ name: 'node009', run: async () => output(value) });

for (const row of badResults) {
  test(`results, ${row.kind}: ${row.fn}`, async (t) => {
    const probe = probeCall(fn(row.fn), row.args as never, (v) => v);
    t.throws(() => probe.read(row.value), { instanceOf: Error, message: row.message });
    const node = answering(row.value);
    await t.throwsAsync(invoke(node, fn(row.fn), row.args as never, 'test'), {
      instanceOf: Error,
      message: row.message,
    });
    t.throws(() => validateResult(row.fn, row.value), { message: row.message });
  });
}

test('results: a good one passes whole; null where the function may return null', async (t) => {
  t.deepEqual(probeCall(PLAY_FUNCTIONS['Get-PlayOsInfo'], {}, (v) => v).read(OS), OS);
  t.is(probeCall(PLAY_FUNCTIONS['Get-PlayService'], { name: 'x' }, (v) => v).read(null), null);
  const node = answering({ adapters: [NIC] });
  t.deepEqual(await invoke(node, PLAY_FUNCTIONS['Get-PlayNetAdapters'], { macAddresses: [NIC.macAddress] }, 'test'), {
    adapters: [NIC],
  });
});

test("results: PowerShell 5.1's lone item and null stand for lists", (t) => {
  const service = { qc: 'qc', queryex: 'queryex' };
  t.deepEqual(validateResult('Get-PlayService', { ...service, dependents: 'kubeproxy' }), {
    ...service,
    dependents: ['kubeproxy'],
  });
  t.deepEqual(validateResult('Get-PlayService', { ...service, dependents: null }), { ...service, dependents: [] });
  t.deepEqual(validateResult('Get-PlayNetAdapters', { adapters: NIC }), { adapters: [NIC] });
});

test('every function of PLAY_FUNCTIONS has a schema, under its own name, and carries the schemas of the contract', (t) => {
  t.deepEqual(Object.keys(CONTRACT).sort(), Object.keys(PLAY_FUNCTIONS).sort());
  for (const [name, f] of Object.entries(PLAY_FUNCTIONS)) {
    t.is(f.name as string, name);
    // The very schemas: a call checks its arguments and result with those its function carries.
    t.is(f.args, CONTRACT[name as PlayFunctionName].args, name);
    t.is(f.result, CONTRACT[name as PlayFunctionName].result, name);
  }
});
