// One controller's cost, pure: from the bench's measurements of each run kind at each size, whether the
// cost grows linearly with hosts, and how many hosts one controller serves per minute (the inputs of
// docs/performance.md's model).

/** One run kind at one size: wall time, the controller's CPU (user + system) and its peak RSS. */
export interface CostPoint {
  size: number;
  kind: string;
  wallMs: number;
  cpuMs: number;
  rssKb: number;
}

/** Linear when the CPU per added host of the largest step is at most this many times the first step's. */
export const LINEAR_FACTOR = 1.5;

export interface Linearity {
  kind: string;
  /** [from, to] sizes of the first and the last step. */
  first: [number, number];
  last: [number, number];
  /** CPU ms per added host over each step: the fixed start-up cost (node, the playbook) drops out. */
  firstMsPerHost: number;
  lastMsPerHost: number;
  /** RSS KB per added host over the last step. */
  lastRssKbPerHost: number;
  ratio: number;
  linear: boolean;
}

const bySize = (points: readonly CostPoint[], kind: string) =>
  points.filter((p) => p.kind === kind).sort((a, b) => a.size - b.size);
const kindsOf = (points: readonly CostPoint[]) => [...new Set(points.map((p) => p.kind))];
const perAdded = (a: CostPoint, b: CostPoint, key: 'cpuMs' | 'rssKb') => (b[key] - a[key]) / (b.size - a.size);

/** Per run kind measured at three sizes or more: the first step's CPU per added host against the last's. */
export function linearity(points: readonly CostPoint[], factor = LINEAR_FACTOR): Linearity[] {
  return kindsOf(points).flatMap((kind): Linearity[] => {
    const ps = bySize(points, kind);
    if (ps.length < 3) return [];
    const [a, b] = [ps[0]!, ps[1]!];
    const [c, d] = [ps.at(-2)!, ps.at(-1)!];
    const firstMsPerHost = perAdded(a, b, 'cpuMs');
    const lastMsPerHost = perAdded(c, d, 'cpuMs');
    const ratio = lastMsPerHost / firstMsPerHost;
    return [
      {
        kind,
        first: [a.size, b.size],
        last: [c.size, d.size],
        firstMsPerHost,
        lastMsPerHost,
        lastRssKbPerHost: perAdded(c, d, 'rssKb'),
        ratio,
        // A first step without CPU growth measures noise, not a cost: no verdict of linear from it.
        linear: firstMsPerHost > 0 && ratio <= factor,
      },
    ];
  });
}

export function linearityLines(verdicts: readonly Linearity[], factor = LINEAR_FACTOR): string[] {
  if (verdicts.length === 0) return ['linearity: needs three sizes or more (--sizes 20,150,1000)'];
  return [
    `linearity: controller CPU ms per added host, first step against the last (linear: at most ${factor}x)`,
    ...verdicts.map(
      (v) =>
        `  ${v.kind.padEnd(34)} ${`${v.first.join('->')}: ${v.firstMsPerHost.toFixed(2)}`.padEnd(18)} ${`${v.last.join('->')}: ${v.lastMsPerHost.toFixed(2)}`.padEnd(20)} ${v.ratio.toFixed(2)}x ${v.linear ? 'linear' : 'NOT LINEAR'} (RSS ${v.lastRssKbPerHost.toFixed(0)} KB per added host)`,
    ),
  ];
}

export interface Capacity {
  kind: string;
  size: number;
  /** Wall time per host at the largest size, at the bench's concurrency. */
  wallMsPerHost: number;
  /** CPU ms per host: per added host over the two largest sizes (the start-up cost left out), else the mean. */
  cpuMsPerHost: number;
  /** Hosts per minute at the bench's concurrency (wall-bound), and per controller core (CPU-bound). */
  hostsPerMinute: number;
  hostsPerMinutePerCore: number;
  rssKb: number;
}

/** Per run kind, at its largest size. */
export function capacity(points: readonly CostPoint[]): Capacity[] {
  return kindsOf(points).map((kind) => {
    const ps = bySize(points, kind);
    const top = ps.at(-1)!;
    const marginal = ps.length >= 2 ? perAdded(ps.at(-2)!, top, 'cpuMs') : 0;
    const cpuMsPerHost = marginal > 0 ? marginal : top.cpuMs / top.size;
    return {
      kind,
      size: top.size,
      wallMsPerHost: top.wallMs / top.size,
      cpuMsPerHost,
      hostsPerMinute: (60_000 * top.size) / top.wallMs,
      hostsPerMinutePerCore: 60_000 / cpuMsPerHost,
      rssKb: top.rssKb,
    };
  });
}

export function capacityLines(rows: readonly Capacity[], forks: number): string[] {
  return [
    `capacity of one controller (docs/performance.md), at the largest size, ${forks} hosts at once:`,
    '',
    '| run | hosts | wall ms / host | CPU ms / host | hosts / min (wall) | hosts / min / core (CPU) | peak RSS |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.size} | ${r.wallMsPerHost.toFixed(1)} | ${r.cpuMsPerHost.toFixed(2)} | ${Math.round(r.hostsPerMinute)} | ${Math.round(r.hostsPerMinutePerCore)} | ${Math.round(r.rssKb / 1024)} MB |`,
    ),
  ];
}
