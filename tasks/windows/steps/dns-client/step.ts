// dnsClient({ primaryDomain?, suffixSearchList? }): the node's DNS suffix (docs/field-notes.md#a-network-clean-up-and-nics:
// `Set-ItemProperty ...\Tcpip\Parameters -Name 'NV Domain'`, `Set-DnsClientGlobalSetting
// -SuffixSearchList`). Fields: primaryDomain, suffixSearchList (in order; DNS names compare
// case-insensitively). The servers are per adapter: netAdapters' dnsServers.
import { z } from 'zod';
import { diffFields, type Change } from '../../../../runner/core/change.js';
import { readOptions } from '../../../../runner/core/step-options.js';
import { applyFields, type Remote, type Step } from '../../../../runner/core/step.js';
import { accepted, checked, type Refuse } from '../../options/checked.js';
import { invoke, probeCall } from '../../remote/calls.js';
import type { FunctionResult } from '../step-remote.js';
import { DNS_CLIENT_REMOTE as REMOTE } from './remote.js';

const KIND = 'windows.dnsClient';
const FIELDS = ['primaryDomain', 'suffixSearchList'] as const;
const DNS_NAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([-A-Za-z0-9]{0,61}[A-Za-z0-9])?)*$/;

/** A DNS domain, lower-cased (DNS names are case-insensitive). */
const dnsName = () =>
  accepted<string>(
    (v) => typeof v === 'string' && DNS_NAME.test(v),
    (v) => `must be a DNS domain such as mylan.k8s, got ${JSON.stringify(v)}`,
  ).transform((v) => v.toLowerCase());

const Options = checked(
  z.strictObject({
    primaryDomain: dnsName().optional(),
    suffixSearchList: z
      .array(dnsName(), { error: 'must be a non-empty list of DNS domains' })
      .min(1, { error: 'must be a non-empty list of DNS domains' })
      .transform((list) => Object.freeze(list))
      .optional(),
  }),
  (o, refuse: Refuse) => {
    if (o.primaryDomain === undefined && o.suffixSearchList === undefined)
      refuse('or suffixSearchList is required (a step that manages nothing is a mistake)', 'primaryDomain');
    return o;
  },
);

export type DnsClientOptions = z.input<typeof Options>;
export type DnsClientDesired = Readonly<z.output<typeof Options>>;
export type DnsClientActual = Readonly<FunctionResult<(typeof REMOTE)['Get-PlayDnsClient']>>;

/** Compared lower-cased (DNS names are case-insensitive); otherwise the common field diff. */
function diffDnsClient(d: Readonly<DnsClientDesired>, a: DnsClientActual | null): Change {
  const lower = a && {
    primaryDomain: a.primaryDomain?.toLowerCase() ?? null,
    suffixSearchList: a.suffixSearchList.map((x) => x.toLowerCase()),
  };
  return diffFields(d, lower, FIELDS);
}

export function dnsClient(options: DnsClientOptions): Step<DnsClientDesired, DnsClientActual> {
  const desired: DnsClientDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = 'DNS client suffixes';
  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayDnsClient'], {}, (client) => client),
    diff: diffDnsClient,
    // Its state is readable as soon as its calls return: the re-probe rides in the same program.
    applyThenProbe: true,
    async apply(remote: Remote, change: Change, _actual: DnsClientActual | null, d: DnsClientDesired): Promise<void> {
      await applyFields(change, FIELDS, {
        primaryDomain: async () => {
          await invoke(
            remote,
            REMOTE['Set-PlayDnsClient'],
            { primaryDomain: d.primaryDomain! },
            `${title}: set NV Domain`,
          );
        },
        suffixSearchList: async () => {
          await invoke(
            remote,
            REMOTE['Set-PlayDnsClient'],
            { suffixSearchList: [...d.suffixSearchList!] },
            `${title}: set the suffix search list`,
          );
        },
      });
    },
  });
}
