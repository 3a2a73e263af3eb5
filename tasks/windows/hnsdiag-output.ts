// `hnsdiag list loadbalancers`: the load balancers kube-proxy programmed into HNS, whose leftovers
// make kube-proxy fail with "hcnCreateLoadBalancer failed in Win32: The specified port already
// exists" (docs/field-notes.md#a-faq, FAQ 5). The note does not show the output itself, only how operators cut the
// IDs out of it, which fixes its shape on each release:
//   1809: for /f "tokens=1 delims=|" %i in ('hnsdiag list loadbalancers') do hnsdiag delete loadbalancers %i
//         -> a table, columns separated by '|', the ID first (a header line first, whose "ID" the
//            loop also feeds to delete, harmlessly)
//   1909: for /f "tokens=2 delims=:" %i in ('hnsdiag list loadbalancers ^| findstr "Load Balancer"') do ...
//         -> blocks starting "Load Balancer : <id>", followed by indented "Name : value" lines
// This parser reads both: the IDs (GUIDs only: header cells are not IDs) and, where given, the
// other columns or fields by name. Pure.

export interface HnsLoadBalancer {
  readonly id: string;
  /** The other columns (1809) or fields (1909 and later), by their header or name, trimmed. */
  readonly fields: Readonly<Record<string, string>>;
}

const GUID = /^\{?[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}?$/i;

function clean(text: string): string[] {
  return text
    .replace(/\0/g, '')
    .split('\n')
    .map((l) => l.replace(/\r$/, ''));
}

function fromTable(lines: readonly string[]): HnsLoadBalancer[] {
  let header: string[] | null = null;
  const out: HnsLoadBalancer[] = [];
  for (const line of lines) {
    if (!line.includes('|')) continue;
    const cells = line.split('|').map((c) => c.trim());
    if (!GUID.test(cells[0]!)) {
      if (cells.some((c) => c !== '' && !/^-+$/.test(c))) header = cells;
      continue;
    }
    const fields: Record<string, string> = {};
    cells.slice(1).forEach((c, i) => {
      fields[header?.[i + 1] || `column${i + 2}`] = c;
    });
    out.push({ id: cells[0]!.replace(/[{}]/g, ''), fields });
  }
  return out;
}

function fromBlocks(lines: readonly string[]): HnsLoadBalancer[] {
  const out: { id: string; fields: Record<string, string> }[] = [];
  for (const line of lines) {
    const start = /^\s*Load Balancer\s*:\s*(\S+)\s*$/i.exec(line);
    if (start) {
      if (!GUID.test(start[1]!))
        throw new Error(`hnsdiag: "Load Balancer" line without an ID: ${JSON.stringify(line)}`);
      out.push({ id: start[1]!.replace(/[{}]/g, ''), fields: {} });
      continue;
    }
    const field = /^\s+([^:]+?)\s*:\s*(.*?)\s*$/.exec(line);
    if (field && out.length > 0) out[out.length - 1]!.fields[field[1]!] = field[2]!;
  }
  return out;
}

export function parseHnsdiagLoadBalancers(text: string): HnsLoadBalancer[] {
  const lines = clean(text);
  if (lines.some((l) => /^\s*Load Balancer\s*:/i.test(l))) return fromBlocks(lines);
  return fromTable(lines);
}
