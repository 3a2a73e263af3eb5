// netAdapters({ adapters: [{ mac, name?, ipv4?, gateway?, dnsServers? }], keepAddress? }): the
// node's NICs, found by MAC as in docs/field-notes.md#a-network-clean-up-and-nics (`Get-NetAdapter | ? MacAddress -eq ...`,
// `New-NetIPAddress`, `Rename-NetAdapter eth0/eth1`, `Set-DnsClientServerAddress`). Optional in the
// onboarding: only when the inventory lists the NICs.
//
// Fields, per adapter (named by its desired name, else its MAC): name, ipv4 (the exact set of static
// "address/prefix"; DHCP counts as different), gateway (the one default route), dnsServers (in
// order: the first is the primary). Only what an adapter spec gives is managed.
//
// keepAddress: the address play reaches the node at. An apply that would remove it from an adapter
// is refused before anything changes: the node would become unreachable halfway through the run,
// and the field note's fix for that is a console login.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { cidrContains, parseCidr, parseIPv4 } from '../common/ipv4.js';
import { invoke, probeCall, stepFailure } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_NET_ADAPTERS, SET_NET_ADAPTER } from './remote/ps-network.js';

export type NetAdapterSpec = {
  mac: string;
  name?: string;
  ipv4?: string | readonly string[];
  gateway?: string;
  dnsServers?: readonly string[];
};
export type NetAdaptersOptions = { adapters: readonly NetAdapterSpec[]; keepAddress?: string };

export interface NetAdapterDesired {
  /** Windows' form: 00-15-5D-D3-D8-DE */
  readonly mac: string;
  readonly name?: string;
  readonly ipv4?: readonly string[];
  readonly gateway?: string;
  readonly dnsServers?: readonly string[];
}
export interface NetAdaptersDesired {
  readonly adapters: readonly NetAdapterDesired[];
  readonly keepAddress?: string;
}

export interface NetAdapterActual {
  readonly name: string;
  readonly ipInterface: string;
  readonly dhcp: boolean;
  readonly ipv4: readonly string[];
  readonly gateway: string | null;
  readonly dnsServers: readonly string[];
}
/** By MAC; an adapter that was not found is absent. */
export interface NetAdaptersActual {
  readonly adapters: Readonly<Record<string, NetAdapterActual>>;
}

const KIND = 'windows.netAdapters';
const MANAGED = ['name', 'ipv4', 'gateway', 'dnsServers'] as const;
type Managed = (typeof MANAGED)[number];

/** Accepts 00:15:5d:00:00:01, 00-15-5D-00-00-01 or 00155D000001. */
function readMac(r: OptionReader, at: string, v: unknown): string {
  const hex = typeof v === 'string' ? v.replace(/[-:]/g, '') : '';
  if (
    !/^[0-9A-Fa-f]{12}$/.test(hex) ||
    (typeof v === 'string' && !/^[0-9A-Fa-f]{2}([-:]?)[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/.test(v))
  ) {
    r.fail(at, `must be a MAC address such as 00-15-5D-00-00-01, got ${JSON.stringify(v)}`);
  }
  return hex.toUpperCase().match(/../g)!.join('-');
}

function readIPv4(r: OptionReader, at: string, v: unknown): string {
  if (typeof v !== 'string' || parseIPv4(v) === null)
    r.fail(at, `must be an IPv4 address such as 100.100.126.205, got ${JSON.stringify(v)}`);
  return v;
}

function readSpec(r: OptionReader, i: number, v: unknown): NetAdapterDesired {
  const at = `adapters[${i}]`;
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    r.fail(at, 'must be an object { mac, name?, ipv4?, gateway?, dnsServers? }');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o))
    if (!['mac', 'name', ...MANAGED].includes(k))
      r.fail(`${at}.${k}`, 'is not an adapter option (mac, name, ipv4, gateway, dnsServers)');
  const spec: { -readonly [K in keyof NetAdapterDesired]: NetAdapterDesired[K] } = {
    mac: readMac(r, `${at}.mac`, o.mac),
  };
  if (o.name !== undefined) {
    if (typeof o.name !== 'string' || !/^[^*?[\]\r\n\0"]{1,64}$/.test(o.name) || /^vEthernet \(/i.test(o.name)) {
      r.fail(
        `${at}.name`,
        `must be an adapter name such as eth0 (no wildcards or quotes, not a vEthernet name), got ${JSON.stringify(o.name)}`,
      );
    }
    spec.name = o.name;
  }
  if (o.ipv4 !== undefined) {
    const list = Array.isArray(o.ipv4) ? o.ipv4 : [o.ipv4];
    if (list.length === 0)
      r.fail(
        `${at}.ipv4`,
        'must list at least one address/prefix (leave it out to keep DHCP or the current addresses)',
      );
    spec.ipv4 = list.map((x, j) => {
      const c = typeof x === 'string' ? parseCidr(x) : null;
      if (c === null || c.prefix < 1 || c.prefix > 32 || (c.address === c.network && c.prefix < 31)) {
        r.fail(
          `${at}.ipv4[${j}]`,
          `must be a host address with its prefix length such as 100.100.126.216/23, got ${JSON.stringify(x)}`,
        );
      }
      return x as string;
    });
  }
  if (o.gateway !== undefined) {
    const gw = readIPv4(r, `${at}.gateway`, o.gateway);
    const nets = (spec.ipv4 ?? []).map((x) => parseCidr(x)!);
    if (spec.ipv4 && !nets.some((c) => cidrContains(c, parseIPv4(gw)!))) {
      r.fail(`${at}.gateway`, `${gw} is not in any subnet of the adapter's addresses (${spec.ipv4.join(', ')})`);
    }
    spec.gateway = gw;
  }
  if (o.dnsServers !== undefined) {
    if (!Array.isArray(o.dnsServers) || o.dnsServers.length === 0)
      r.fail(`${at}.dnsServers`, 'must be a non-empty list of IPv4 addresses, primary first');
    spec.dnsServers = o.dnsServers.map((x, j) => readIPv4(r, `${at}.dnsServers[${j}]`, x));
  }
  return Object.freeze(spec);
}

const label = (d: NetAdapterDesired) => d.name ?? d.mac;
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join() === [...b].sort().join();

function differs(d: NetAdapterDesired, a: NetAdapterActual, f: Managed): boolean {
  switch (f) {
    case 'name':
      return d.name !== undefined && d.name.toLowerCase() !== a.name.toLowerCase();
    case 'ipv4':
      return d.ipv4 !== undefined && (a.dhcp || !sameSet(d.ipv4, a.ipv4));
    case 'gateway':
      return d.gateway !== undefined && d.gateway !== a.gateway;
    case 'dnsServers':
      return d.dnsServers !== undefined && d.dnsServers.join() !== a.dnsServers.join();
  }
}

export function diffNetAdapters(d: Readonly<NetAdaptersDesired>, actual: NetAdaptersActual | null): Change {
  const fields: string[] = [],
    before: Fields = {},
    after: Fields = {},
    warnings: string[] = [];
  for (const spec of d.adapters) {
    const a = actual?.adapters[spec.mac];
    if (a === undefined) {
      fields.push(label(spec));
      before[label(spec)] = null;
      after[label(spec)] = Object.fromEntries(MANAGED.filter((f) => spec[f] !== undefined).map((f) => [f, spec[f]]));
      warnings.push(
        `there is no physical network adapter with MAC ${spec.mac} on the host: apply will fail (check the inventory's MAC)`,
      );
      continue;
    }
    for (const f of MANAGED) {
      if (!differs(spec, a, f)) continue;
      const key = `${label(spec)}.${f}`;
      fields.push(key);
      before[key] = f === 'ipv4' && a.dhcp ? `DHCP (${a.ipv4.join(', ') || 'no address'})` : a[f];
      after[key] = spec[f];
    }
  }
  if (fields.length === 0) return NOOP;
  return { action: 'update', fields, before, after, ...(warnings.length ? { warnings } : {}) };
}

/** Keyed by MAC in upper case, as the desired adapters are. */
function readActual(value: ResultOf<'Get-PlayNetAdapters'>): NetAdaptersActual {
  return {
    adapters: Object.fromEntries(
      value.adapters.map(({ macAddress, interfaceIndex: _index, ...adapter }) => [macAddress.toUpperCase(), adapter]),
    ),
  };
}

export function netAdapters(options: NetAdaptersOptions): Step<NetAdaptersDesired, NetAdaptersActual> {
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['adapters', 'keepAddress']);
  if (!Array.isArray(r.opts.adapters) || r.opts.adapters.length === 0)
    r.fail('adapters', 'must be a non-empty list of { mac, name?, ipv4?, gateway?, dnsServers? }');
  const adapters = (r.opts.adapters as unknown[]).map((v, i) => readSpec(r, i, v));
  adapters.forEach((a, i) => {
    const j = adapters.findIndex(
      (b) => b.mac === a.mac || (a.name !== undefined && b.name?.toLowerCase() === a.name.toLowerCase()),
    );
    if (j !== i)
      r.fail(
        `adapters[${i}]`,
        `has the same ${adapters[j]!.mac === a.mac ? `MAC ${a.mac}` : `name ${a.name}`} as adapters[${j}]`,
      );
  });
  const keepAddress = r.opts.keepAddress === undefined ? undefined : readIPv4(r, 'keepAddress', r.opts.keepAddress);
  const desired: NetAdaptersDesired = Object.freeze({
    adapters: Object.freeze(adapters),
    ...(keepAddress ? { keepAddress } : {}),
  });
  const title = `network adapters ${adapters.map(label).join(', ')}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_NET_ADAPTERS, { macAddresses: adapters.map((a) => a.mac) }, readActual),
    diff: diffNetAdapters,
    async apply(remote: Remote, change: Change, actual: NetAdaptersActual | null): Promise<void> {
      const plans = adapters.map((spec) => ({
        spec,
        a: actual?.adapters[spec.mac],
        fields: change.fields.filter((f) => f === label(spec) || f.startsWith(`${label(spec)}.`)),
      }));
      for (const { spec, a, fields } of plans) {
        if (fields.length > 0 && a === undefined)
          throw stepFailure(
            title,
            `there is no physical network adapter with MAC ${spec.mac} on ${remote.name}: check the inventory's MAC for ${label(spec)}`,
          );
        const losing =
          keepAddress &&
          a &&
          fields.includes(`${label(spec)}.ipv4`) &&
          a.ipv4.some((x) => x.split('/')[0] === keepAddress) &&
          !spec.ipv4!.some((x) => x.split('/')[0] === keepAddress);
        if (losing)
          throw stepFailure(
            title,
            `would remove ${keepAddress} from ${a.ipInterface}, the address play reaches ${remote.name} at: the node would be cut off mid-run. Change it from the console, or connect by another address first`,
          );
      }
      for (const { spec, fields } of plans) {
        if (fields.length === 0) continue;
        const has = (f: Managed) => fields.includes(`${label(spec)}.${f}`);
        await invoke(
          remote,
          SET_NET_ADAPTER,
          {
            macAddress: spec.mac,
            ...(has('name') ? { newName: spec.name! } : {}),
            ...(has('ipv4') ? { ipv4: [...spec.ipv4!] } : {}),
            ...(has('gateway') ? { gateway: spec.gateway! } : {}),
            ...(has('dnsServers') ? { dnsServers: [...spec.dnsServers!] } : {}),
          },
          `${title}: set ${label(spec)}`,
        );
      }
    },
  });
}
