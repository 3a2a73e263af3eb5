// The DNS client's global settings as Get-/Set-DnsClientGlobalSetting see them
// (mock/DnsClient.psm1): the suffix search list (NodeState.dnsSuffixSearchList). The primary
// suffix is the registry's Tcpip\Parameters `NV Domain`, read through the registry.
import { type Ops, strs } from './types.js';

export const dnsClientOps: Ops = {
  'DnsClient.GetGlobal': (node) => ({
    suffixSearchList: [...node.state.dnsSuffixSearchList],
    useDevolution: true,
    devolutionLevel: 0,
  }),

  'DnsClient.SetGlobal': (node, a) => {
    node.state.dnsSuffixSearchList = strs(a, 'suffixSearchList');
    return null;
  },
};
