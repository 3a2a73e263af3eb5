// dnsClient({ primaryDomain?, suffixSearchList? }): the node's DNS suffix (docs/field-notes.md#a-network-clean-up-and-nics:
// `Set-ItemProperty ...\Tcpip\Parameters -Name 'NV Domain'`, `Set-DnsClientGlobalSetting
// -SuffixSearchList`). Fields: primaryDomain, suffixSearchList (in order; DNS names compare
// case-insensitively). The servers are per adapter: netAdapters' dnsServers.
import { diffFields, type Change } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import { applyFields, type Remote, type Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_DNS_CLIENT, SET_DNS_CLIENT } from './remote/ps-network.js';

export type DnsClientOptions = { primaryDomain?: string; suffixSearchList?: readonly string[] };
export interface DnsClientDesired {
  readonly primaryDomain?: string;
  readonly suffixSearchList?: readonly string[];
}
export type DnsClientActual = Readonly<ResultOf<'Get-PlayDnsClient'>>;

const KIND = 'windows.dnsClient';
const FIELDS = ['primaryDomain', 'suffixSearchList'] as const;
const DNS_NAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/;

function dnsName(r: OptionReader, at: string, v: unknown): string {
  if (typeof v !== 'string' || !DNS_NAME.test(v))
    r.fail(at, `must be a DNS domain such as mylan.k8s, got ${JSON.stringify(v)}`);
  return v.toLowerCase();
}

/** Compared lower-cased (DNS names are case-insensitive); otherwise the common field diff. */
export function diffDnsClient(d: Readonly<DnsClientDesired>, a: DnsClientActual | null): Change {
  const lower = a && {
    primaryDomain: a.primaryDomain?.toLowerCase() ?? null,
    suffixSearchList: a.suffixSearchList.map((x) => x.toLowerCase()),
  };
  return diffFields(d, lower, FIELDS);
}

export function dnsClient(options: DnsClientOptions): Step<DnsClientDesired, DnsClientActual> {
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only([...FIELDS]);
  const { primaryDomain, suffixSearchList } = r.opts;
  if (primaryDomain === undefined && suffixSearchList === undefined)
    r.fail('primaryDomain', 'or suffixSearchList is required (a step that manages nothing is a mistake)');
  if (suffixSearchList !== undefined && (!Array.isArray(suffixSearchList) || suffixSearchList.length === 0))
    r.fail('suffixSearchList', 'must be a non-empty list of DNS domains');
  const desired: DnsClientDesired = Object.freeze({
    ...(primaryDomain !== undefined ? { primaryDomain: dnsName(r, 'primaryDomain', primaryDomain) } : {}),
    ...(suffixSearchList !== undefined
      ? {
          suffixSearchList: Object.freeze(
            (suffixSearchList as unknown[]).map((x, i) => dnsName(r, `suffixSearchList[${i}]`, x)),
          ),
        }
      : {}),
  });
  const title = 'DNS client suffixes';
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_DNS_CLIENT, {}, (client) => client),
    diff: diffDnsClient,
    async apply(remote: Remote, change: Change): Promise<void> {
      await applyFields(change, FIELDS, {
        primaryDomain: async () => {
          await invoke(remote, SET_DNS_CLIENT, { primaryDomain: desired.primaryDomain! }, `${title}: set NV Domain`);
        },
        suffixSearchList: async () => {
          await invoke(
            remote,
            SET_DNS_CLIENT,
            { suffixSearchList: [...desired.suffixSearchList!] },
            `${title}: set the suffix search list`,
          );
        },
      });
    },
  });
}
