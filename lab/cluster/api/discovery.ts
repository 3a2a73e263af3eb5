// Discovery and /version of the API double (lab/cluster/api/, a TEST DOUBLE), made from the resource
// table (resources.ts). The unaggregated documents only (APIVersions, APIGroupList, APIResourceList):
// kubectl 1.26 and later ask for the aggregated ones first (Accept: ...;as=APIGroupDiscoveryList) and
// fall back to these when the answer is plain JSON, as against any server before 1.26.
// The control plane claims v1.24: it serves policy/v1 (PodDisruptionBudget and Eviction, since 1.21) and
// still policy/v1beta1 (removed in 1.25) for clients written against it, and OpenAPI v3 (on by
// default since 1.24), from which kubectl 1.32 learns that the server validates fields (openapi.ts).
// Build facts a double cannot vouch for (commit, build date, Go version) are left out.
import { RESOURCES, type Resource } from './resources.js';

export const SERVER_VERSION = {
  major: '1',
  minor: '24',
  gitVersion: 'v1.24.17',
  gitTreeState: 'clean',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** Every group version served, core first, then the groups by name, each's preferred version first. */
function groupVersions(): { group: string; versions: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const r of RESOURCES) {
    const vs = groups.get(r.group) ?? [];
    for (const v of r.versions) if (!vs.includes(v)) vs.push(v);
    groups.set(r.group, vs);
  }
  return [...groups].map(([group, versions]) => ({ group, versions })).sort((a, b) => a.group.localeCompare(b.group));
}

/** GET /api */
export function coreVersions(serverAddress: string): object {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

/** GET /apis */
export function groupList(): object {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groupVersions()
      .filter((g) => g.group !== '')
      .map((g) => {
        const versions = g.versions.map((version) => ({ groupVersion: `${g.group}/${version}`, version }));
        return { name: g.group, versions, preferredVersion: versions[0] };
      }),
  };
}

function entries(r: Resource): object[] {
  const main = {
    name: r.resource,
    singularName: r.singular,
    namespaced: r.namespaced,
    kind: r.kind,
    verbs: Object.keys(r.verbs).sort(),
    ...(r.shortNames ? { shortNames: r.shortNames } : {}),
    ...(r.categories ? { categories: r.categories } : {}),
  };
  const subs = Object.entries(r.subresources ?? {}).map(([name, s]) => ({
    name: `${r.resource}/${name}`,
    singularName: '',
    namespaced: r.namespaced,
    group: s.group,
    version: s.version,
    kind: s.kind,
    verbs: ['create'],
  }));
  return [main, ...subs];
}

/** GET /api/v1 or /apis/GROUP/VERSION; undefined for a group version not served. */
export function resourceList(group: string, version: string): object | undefined {
  const served = RESOURCES.filter((r) => r.group === group && r.versions.includes(version));
  if (served.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: served.flatMap(entries),
  };
}
