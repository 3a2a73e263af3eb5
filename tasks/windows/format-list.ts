// PowerShell's Format-List text, as an operator pastes it (docs/field-notes.md#a-faq shows `get-hnsendpoint | ?
// ipaddress -eq 10.160.11.169`): records separated by blank lines, one `Name : value` per line with
// the names padded to one column, long values wrapped onto lines indented to the value column
// (the wrap replaced a space), prompt lines (`PS C:\...>`) and other text in between. Our own probes never
// depend on this (they return JSON); it reads diagnostics a person copied, e.g. to find the
// endpoints that field note A's Windows 1909 bug turned into remote ones. Pure.

export type ListRecord = Readonly<Record<string, string>>;

export function parseFormatList(text: string): ListRecord[] {
  const records: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  let lastKey: string | null = null;
  for (const raw of text.replace(/\0/g, '').split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (/^PS [^>]*>/.test(line) || line.trim() === '') {
      current = null;
      lastKey = null;
      continue;
    }
    const field = /^([A-Za-z_][A-Za-z0-9_]*)\s*: ?(.*)$/.exec(line);
    if (field) {
      if (current === null) {
        current = {};
        records.push(current);
      }
      lastKey = field[1]!;
      current[lastKey] = field[2]!.trim();
      continue;
    }
    if (current !== null && lastKey !== null && /^\s/.test(line)) {
      current[lastKey] = `${current[lastKey]} ${line.trim()}`.trim();
      continue;
    }
    if (current === null) continue; // text between records: a heading or a note, not data
    throw new Error(`Format-List: unexpected line ${JSON.stringify(line)}`);
  }
  return records;
}

export interface HnsEndpointListed {
  readonly id: string;
  readonly name: string;
  readonly ipAddress: string;
  readonly gateway: string | null;
  readonly macAddress: string;
  readonly prefixLength: number | null;
  readonly networkName: string;
  readonly type: string;
  readonly isRemoteEndpoint: boolean;
  readonly state: number | null;
}

/** The endpoints of `Get-HnsEndpoint | Format-List` output (IDs upper-cased: HNS prints both cases). */
export function hnsEndpointsFromList(text: string): HnsEndpointListed[] {
  return parseFormatList(text).map((r) => {
    if (r.ID === undefined || r.IPAddress === undefined)
      throw new Error(`Get-HnsEndpoint: a record without ID or IPAddress: ${JSON.stringify(r)}`);
    const int = (v: string | undefined) => (v !== undefined && /^[0-9]+$/.test(v) ? Number(v) : null);
    return {
      id: r.ID.toUpperCase(),
      name: r.Name ?? '',
      ipAddress: r.IPAddress,
      gateway: r.GatewayAddress || null,
      macAddress: r.MacAddress ?? '',
      prefixLength: int(r.PrefixLength),
      networkName: r.VirtualNetworkName ?? '',
      type: r.Type ?? '',
      isRemoteEndpoint: r.IsRemoteEndpoint === 'True',
      state: int(r.State),
    };
  });
}
