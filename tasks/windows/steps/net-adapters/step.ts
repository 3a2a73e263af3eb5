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
import { z } from 'zod';
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { cidrContains, parseCidr, parseIPv4 } from '../../../common/ipv4.js';
import { accepted, checked, type Refuse } from '../../options/checked.js';
import { invoke, probeCall, stepFailure } from '../../remote/calls.js';
import type { FunctionResult } from '../step-remote.js';
import { NET_ADAPTERS_REMOTE as REMOTE } from './remote.js';

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

/** Accepts 00:15:5d:00:00:01, 00-15-5D-00-00-01 or 00155D000001; Windows' form: 00-15-5D-D3-D8-DE. */
const macAddress = () =>
  accepted<string>(
    (v) =>
      typeof v === 'string' &&
      /^[0-9A-Fa-f]{12}$/.test(v.replace(/[-:]/g, '')) &&
      /^[0-9A-Fa-f]{2}([-:]?)[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/.test(v),
    (v) => `must be a MAC address such as 00-15-5D-00-00-01, got ${JSON.stringify(v)}`,
  ).transform((v) => v.replace(/[-:]/g, '').toUpperCase().match(/../g)!.join('-'));

const ipv4Address = () =>
  accepted<string>(
    (v) => typeof v === 'string' && parseIPv4(v) !== null,
    (v) => `must be an IPv4 address such as 100.100.126.205, got ${JSON.stringify(v)}`,
  );

const adapterName = () =>
  accepted<string>(
    (v) => typeof v === 'string' && /^[^*?[\]\r\n\0"]{1,64}$/.test(v) && !/^vEthernet \(/i.test(v),
    (v) =>
      `must be an adapter name such as eth0 (no wildcards or quotes, not a vEthernet name), got ${JSON.stringify(v)}`,
  );

/** One address/prefix or a list of them: each a host address with its prefix length. */
function readAddresses(v: string | readonly string[], refuse: Refuse): readonly string[] {
  const list: readonly unknown[] = Array.isArray(v) ? v : [v];
  if (list.length === 0)
    refuse('must list at least one address/prefix (leave it out to keep DHCP or the current addresses)');
  list.forEach((x, j) => {
    const c = typeof x === 'string' ? parseCidr(x) : null;
    if (c === null || c.prefix < 1 || c.prefix > 32 || (c.address === c.network && c.prefix < 31))
      refuse(`must be a host address with its prefix length such as 100.100.126.216/23, got ${JSON.stringify(x)}`, j);
  });
  return Object.freeze([...(list as string[])]);
}

const NON_EMPTY_DNS = 'must be a non-empty list of IPv4 addresses, primary first';

const AdapterSpec = checked(
  z.strictObject(
    {
      mac: macAddress(),
      name: adapterName().optional(),
      ipv4: checked(
        z.custom<string | readonly string[]>(() => true),
        readAddresses,
      ).optional(),
      gateway: ipv4Address().optional(),
      dnsServers: z
        .array(ipv4Address(), { error: NON_EMPTY_DNS })
        .min(1, { error: NON_EMPTY_DNS })
        .transform((v) => Object.freeze(v))
        .optional(),
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? 'is not an adapter option (mac, name, ipv4, gateway, dnsServers)'
          : 'must be an object { mac, name?, ipv4?, gateway?, dnsServers? }',
    },
  ),
  (spec, refuse: Refuse) => {
    const { gateway, ipv4 } = spec;
    if (gateway !== undefined && ipv4 && !ipv4.some((x) => cidrContains(parseCidr(x)!, parseIPv4(gateway)!)))
      refuse(`${gateway} is not in any subnet of the adapter's addresses (${ipv4.join(', ')})`, 'gateway');
    return Object.freeze(spec);
  },
);

const NON_EMPTY_ADAPTERS = 'must be a non-empty list of { mac, name?, ipv4?, gateway?, dnsServers? }';

const Options = checked(
  z.strictObject({
    adapters: z.array(AdapterSpec, { error: NON_EMPTY_ADAPTERS }).min(1, { error: NON_EMPTY_ADAPTERS }),
    keepAddress: ipv4Address().optional(),
  }),
  (o, refuse: Refuse) => {
    const { adapters } = o;
    adapters.forEach((a, i) => {
      const j = adapters.findIndex(
        (b) => b.mac === a.mac || (a.name !== undefined && b.name?.toLowerCase() === a.name.toLowerCase()),
      );
      if (j !== i)
        refuse(
          `has the same ${adapters[j]!.mac === a.mac ? `MAC ${a.mac}` : `name ${a.name}`} as adapters[${j}]`,
          'adapters',
          i,
        );
    });
    return { ...o, adapters: Object.freeze(adapters) };
  },
);

export type NetAdapterSpec = z.input<typeof AdapterSpec>;
export type NetAdaptersOptions = z.input<typeof Options>;
export type NetAdapterDesired = z.output<typeof AdapterSpec>;
export type NetAdaptersDesired = Readonly<z.output<typeof Options>>;

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

function diffNetAdapters(d: Readonly<NetAdaptersDesired>, actual: NetAdaptersActual | null): Change {
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
function readActual(value: FunctionResult<(typeof REMOTE)['Get-PlayNetAdapters']>): NetAdaptersActual {
  return {
    adapters: Object.fromEntries(
      value.adapters.map(({ macAddress, interfaceIndex: _index, ...adapter }) => [macAddress.toUpperCase(), adapter]),
    ),
  };
}

export function netAdapters(options: NetAdaptersOptions): Step<NetAdaptersDesired, NetAdaptersActual> {
  const desired: NetAdaptersDesired = Object.freeze(readOptions(KIND, Options, options));
  const { adapters } = desired;
  const title = `network adapters ${adapters.map(label).join(', ')}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayNetAdapters'], { macAddresses: adapters.map((a) => a.mac) }, readActual),
    diff: diffNetAdapters,
    async apply(
      remote: Remote,
      change: Change,
      actual: NetAdaptersActual | null,
      d: NetAdaptersDesired,
    ): Promise<void> {
      const { keepAddress } = d;
      const plans = d.adapters.map((spec) => ({
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
          REMOTE['Set-PlayNetAdapter'],
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
