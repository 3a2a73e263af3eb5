// The argument shapes of tasks/windows/contract.ts, checked at run time by the simulated Windows node
// (a test double): a call whose argument does not fit the contract fails with a message naming the
// field, so a step and the contract cannot drift apart unnoticed. The mapped type makes a missing
// or misspelt field a compile error here.
import type { ArgsOf, PlayFunctionName } from '../../tasks/windows/contract.js';
import { badArgument } from './errors.js';

/** `string`, `number`, `boolean`, `string[]`, `data` (a registry value), `enum:a,b`; `?` optional, `|null` nullable. */
type Spec = string;
type Schema = { [F in PlayFunctionName]: { [K in keyof Required<ArgsOf<F>>]: Spec } };

const START_MODE = 'enum:Auto,Manual,Disabled';
const RULE = {
  name: 'string',
  displayName: 'string',
  enabled: 'boolean',
  direction: 'enum:Inbound,Outbound',
  protocol: 'string',
  localPort: 'string',
  action: 'enum:Allow,Block',
};

export const ARG_SCHEMA: Schema = {
  'Get-PlayOsInfo': {},
  'Get-PlayHotfix': { kb: 'string', msuPath: 'string?' },
  'Install-PlayHotfix': { kb: 'string', msuPath: 'string' },
  'Test-PlayPath': { path: 'string' },
  'Restart-PlayComputer': { delaySeconds: 'number' },
  'Get-PlayWindowsFeature': { name: 'string' },
  'Install-PlayWindowsFeature': { name: 'string' },
  'Get-PlayWindowsCapability': { name: 'string' },
  'Add-PlayWindowsCapability': { name: 'string' },
  'Get-PlayDockerEngine': {},
  'Install-PlayDockerEngine': { version: 'string|null' },
  'Get-PlayDockerImage': { reference: 'string' },
  'Invoke-PlayDockerPull': { reference: 'string' },
  'Get-PlayFile': { path: 'string', maxBytes: 'number' },
  'Set-PlayFile': { path: 'string', contentBase64: 'string', expectedSha256: 'string|null' },
  'Get-PlayRegistryValue': { path: 'string', name: 'string' },
  'Set-PlayRegistryValue': {
    path: 'string',
    name: 'string',
    type: 'enum:String,ExpandString,DWord,QWord,MultiString,Binary',
    data: 'data',
  },
  'Get-PlayService': { name: 'string' },
  'Set-PlayService': {
    name: 'string',
    create: 'boolean',
    binPath: 'string?',
    displayName: 'string?',
    startMode: `${START_MODE}?`,
    dependencies: 'string[]?',
    account: 'string?',
    password: 'string?',
  },
  'Set-PlayServiceState': { name: 'string', action: 'enum:start,stop,restart' },
  'Get-PlayNssmService': { name: 'string' },
  'Set-PlayNssmService': {
    name: 'string',
    install: 'boolean',
    application: 'string?',
    appParameters: 'string?',
    appDirectory: 'string?',
    dependOnService: 'string[]?',
  },
  'Get-PlayHnsNetwork': { name: 'string' },
  'New-PlayHnsNetwork': {
    name: 'string',
    type: 'enum:L2Bridge',
    addressPrefix: 'string',
    gateway: 'string',
    adapterName: 'string',
  },
  'Remove-PlayHnsNetwork': { name: 'string' },
  'Get-PlayHnsEndpoint': { name: 'string' },
  'New-PlayHnsEndpoint': { name: 'string', networkName: 'string', ipAddress: 'string', gateway: 'string' },
  'Remove-PlayHnsEndpoint': { name: 'string' },
  'Set-PlayHnsEndpointHost': { name: 'string', compartmentId: 'number', forwarding: 'boolean' },
  'Get-PlayFirewallRule': { name: 'string' },
  'Set-PlayFirewallRule': RULE as Schema['Set-PlayFirewallRule'],
  'Get-PlayTimeZone': {},
  'Set-PlayTimeZone': { id: 'string' },
  'Get-PlayNtp': {},
  'Set-PlayNtp': { servers: 'string[]' },
  'Get-PlayAutoUpdate': {},
  'Set-PlayAutoUpdate': { enabled: 'boolean' },
  'Get-PlayNetAdapters': { macAddresses: 'string[]' },
  'Set-PlayNetAdapter': {
    macAddress: 'string',
    newName: 'string?',
    ipv4: 'string[]?',
    gateway: 'string?',
    dnsServers: 'string[]?',
  },
  'Get-PlayDnsClient': {},
  'Set-PlayDnsClient': { primaryDomain: 'string?', suffixSearchList: 'string[]?' },
  'Get-PlayNetworkCleanup': {},
  'Invoke-PlayNetworkCleanup': { token: 'string', removeHnsNetworks: 'boolean', removeGhostAdapters: 'boolean' },
};

function fits(spec: string, v: unknown): boolean {
  if (spec.startsWith('enum:')) return typeof v === 'string' && spec.slice(5).split(',').includes(v);
  switch (spec) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'string[]':
      return Array.isArray(v) && v.every((x) => typeof x === 'string');
    case 'data':
      return (
        typeof v === 'string' || typeof v === 'number' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))
      );
  }
  throw new Error(`bad spec ${spec}`);
}

/** Throws a WindowsError for an argument that does not fit the contract of `fn`. */
export function checkArgs(fn: PlayFunctionName, args: unknown): void {
  if (args === null || typeof args !== 'object' || Array.isArray(args))
    throw badArgument(fn, '(the argument)', 'an object', args);
  const schema = ARG_SCHEMA[fn] as Record<string, Spec>;
  const given = args as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!(key in schema))
      throw badArgument(
        fn,
        key,
        `absent (the contract has: ${Object.keys(schema).join(', ') || 'no fields'})`,
        given[key],
      );
  }
  for (const [key, raw] of Object.entries(schema)) {
    const optional = raw.endsWith('?');
    const nullable = raw.endsWith('|null');
    const spec = raw.replace(/\?$|\|null$/, '');
    const v = given[key];
    if (v === undefined && optional) continue;
    if (v === null && (nullable || optional)) continue;
    if (!fits(spec, v))
      throw badArgument(fn, key, `${spec.replace(/^enum:/, 'one of ')}${nullable ? ' or null' : ''}`, v);
  }
}
