// What Prometheus' answers mean for the next batch. A query is firing when its result has series (an
// instant vector, or a range query's matrix); an alert when /api/v1/alerts lists it in state "firing"
// (a "pending" one has not fired yet). Anything else (unreachable, an HTTP error, `status: error`, JSON
// that is not Prometheus' envelope, a scalar result) is an error, and an error holds the run as firing
// does: the gate fails closed, never reads "no answer" as "no alert". Pure.

/** One HTTP exchange: the status and body, or why there was none. */
export type HttpAnswer = { readonly status: number; readonly body: string } | { readonly failed: string };

/** What one query, or one alert name, says. `what` names it: "query `up == 0`", "alert NodeDown". */
export type Finding =
  | { readonly state: 'clear'; readonly what: string }
  | { readonly state: 'firing'; readonly what: string; readonly series: readonly string[] }
  | { readonly state: 'error'; readonly what: string; readonly why: string };

/** Series listed in a reason; the rest are counted. */
const SHOWN_SERIES = 3;

/** Prometheus' envelope's data, or why the answer is not a successful one. */
function envelope(a: HttpAnswer): { data: Record<string, unknown> } | { why: string } {
  if ('failed' in a) return { why: `unreachable (${a.failed})` };
  let body: unknown;
  try {
    body = JSON.parse(a.body);
  } catch {
    const text = a.body.trim().slice(0, 80);
    return { why: `HTTP ${a.status}, not Prometheus' JSON${text ? `: ${text}` : ''}` };
  }
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (b.status === 'error')
    return { why: `HTTP ${a.status} ${String(b.errorType ?? 'error')}: ${String(b.error ?? '')}` };
  if (b.status !== 'success' || typeof b.data !== 'object' || b.data === null)
    return { why: `HTTP ${a.status}, not Prometheus' answer (no status "success" with data)` };
  if (a.status < 200 || a.status > 299) return { why: `HTTP ${a.status}` };
  return { data: b.data as Record<string, unknown> };
}

/** Labels as PromQL writes a selector: `up{instance="a", job="node"}` (`__name__` in front). */
export function seriesText(labels: unknown, drop: readonly string[] = []): string {
  const l = (typeof labels === 'object' && labels !== null ? labels : {}) as Record<string, unknown>;
  const name = typeof l.__name__ === 'string' && !drop.includes('__name__') ? l.__name__ : '';
  const pairs = Object.keys(l)
    .filter((k) => k !== '__name__' && !drop.includes(k))
    .sort()
    .map((k) => `${k}=${JSON.stringify(String(l[k]))}`);
  return `${name}{${pairs.join(', ')}}`;
}

/** /api/v1/query's answer for `query`. */
export function queryFinding(query: string, a: HttpAnswer): Finding {
  const what = `query \`${query}\``;
  const e = envelope(a);
  if ('why' in e) return { state: 'error', what, why: e.why };
  const { resultType, result } = e.data;
  if (resultType !== 'vector' && resultType !== 'matrix')
    return {
      state: 'error',
      what,
      why: `returned a ${String(resultType)}, not series: write it to select the series that mean trouble (e.g. up == 0)`,
    };
  if (!Array.isArray(result)) return { state: 'error', what, why: 'no result list in the answer' };
  if (result.length === 0) return { state: 'clear', what };
  return { state: 'firing', what, series: result.map((r) => seriesText((r as { metric?: unknown })?.metric)) };
}

/** /api/v1/alerts' answer, for each alert name asked about (one answer serves them all). */
export function alertFindings(names: readonly string[], a: HttpAnswer): Finding[] {
  const e = envelope(a);
  const alerts = 'data' in e ? e.data.alerts : undefined;
  const why = 'why' in e ? e.why : Array.isArray(alerts) ? null : 'no alert list in the answer';
  return names.map((name): Finding => {
    const what = `alert ${name}`;
    if (why !== null) return { state: 'error', what, why };
    const firing = (alerts as { labels?: Record<string, unknown>; state?: unknown }[]).filter(
      (x) => x?.state === 'firing' && x.labels?.alertname === name,
    );
    return firing.length === 0
      ? { state: 'clear', what }
      : { state: 'firing', what, series: firing.map((x) => seriesText(x.labels, ['alertname'])) };
  });
}

function listed(series: readonly string[]): string {
  const more = series.length - SHOWN_SERIES;
  return series.slice(0, SHOWN_SERIES).join(', ') + (more > 0 ? ` and ${more} more` : '');
}

/**
 * Why the next batch must wait, or null when every query and alert is clear. Firing ones come first;
 * errors say Prometheus could not tell, which holds the run as well.
 */
export function gateVerdict(findings: readonly Finding[], prometheus: string): string | null {
  const parts = findings.flatMap((f) => {
    if (f.state === 'firing')
      return f.what.startsWith('alert ')
        ? [`${f.what} firing${f.series.some((x) => x !== '{}') ? ` ${listed(f.series)}` : ''}`]
        : [`${f.what} returned ${f.series.length} series: ${listed(f.series)}`];
    return [];
  });
  const errors = findings.filter((f) => f.state === 'error');
  if (errors.length)
    parts.push(
      `Prometheus ${prometheus} could not tell (the gate holds until it can): ${errors.map((f) => `${f.what}: ${(f as { why: string }).why}`).join('; ')}`,
    );
  return parts.length ? parts.join('; ') : null;
}

/** The line a clear gate leaves in the journal. */
export function clearText(findings: readonly Finding[]): string {
  const n = (k: string) => findings.filter((f) => f.what.startsWith(k)).length;
  const q = n('query '),
    a = n('alert ');
  const said = [
    q ? `${q} quer${q === 1 ? 'y' : 'ies'} empty` : '',
    a ? `${a} alert${a === 1 ? '' : 's'} not firing` : '',
  ];
  return `Prometheus: ${said.filter(Boolean).join(', ')}`;
}
