// TEST DOUBLE of Prometheus' HTTP API, for the rolling run's alert gate: a node:http server on loopback
// answering GET (or form POST) /api/v1/query and GET /api/v1/alerts from a state the test sets, in
// Prometheus' envelope ({ status, data: { resultType, result } } / { status, data: { alerts } }). It
// says no where Prometheus says no: a missing, empty or malformed query is HTTP 400 with
// `status: error, errorType: bad_data` (the double checks only brackets and quotes, not all of PromQL),
// another method 405, an unknown path 404 "404 page not found" as Go's server writes it. It evaluates
// nothing: a query the state does not list has an empty result, as a query for series that do not
// exist has in Prometheus.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Labels = Record<string, string>;

export interface DoubleAlert {
  readonly labels: Labels & { alertname: string };
  readonly state: 'firing' | 'pending';
}

export interface PrometheusState {
  /** The series each query's instant vector holds; a query not listed returns an empty vector. */
  queries: Record<string, readonly Labels[]>;
  /** The active alerts, or a function of how many times /api/v1/alerts was asked (1 on the first ask). */
  alerts: readonly DoubleAlert[] | ((ask: number) => readonly DoubleAlert[]);
  /** Answer every API request with this instead (a proxy in front of a Prometheus that is down). */
  broken?: { status: number; body: string };
}

export interface PrometheusDouble {
  readonly url: string;
  readonly state: PrometheusState;
  /** Every request as `METHOD path?query`, in order. */
  readonly requests: readonly string[];
  /** The Authorization header of each request ('' when none), in order. */
  readonly authorizations: readonly string[];
  close(): Promise<void>;
}

export const firing = (alertname: string, labels: Labels = {}): DoubleAlert => ({
  labels: { alertname, ...labels },
  state: 'firing',
});

const OPEN = '([{';
const CLOSE = ')]}';
const NAMES = ['parenthesis', 'bracket', 'brace'];

/** Why PromQL's parser would refuse `q`, as far as brackets and quotes tell, or null. */
export function promqlSyntaxError(q: string): string | null {
  if (q.trim() === '') return 'unknown position: parse error: no expression found in input';
  const stack: number[] = [];
  let quote: string | null = null;
  for (let i = 0; i < q.length; i++) {
    const c = q[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') quote = c;
    else if (OPEN.includes(c)) stack.push(OPEN.indexOf(c));
    else if (CLOSE.includes(c) && stack.pop() !== CLOSE.indexOf(c))
      return `1:${i + 1}: parse error: unexpected right ${NAMES[CLOSE.indexOf(c)]} '${c}'`;
  }
  if (quote) return `1:${q.length}: parse error: unterminated quoted string ${quote}`;
  if (stack.length) return `1:${q.length}: parse error: unclosed left ${NAMES[stack.at(-1)!]}`;
  return null;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const badData = (res: ServerResponse, error: string) =>
  send(res, 400, { status: 'error', errorType: 'bad_data', error });

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return new URLSearchParams(body);
}

function vector(series: readonly Labels[]) {
  const now = Date.now() / 1000;
  return { resultType: 'vector', result: series.map((metric) => ({ metric, value: [now, '1'] })) };
}

/** Starts the double on 127.0.0.1 (a free port). */
export async function prometheusDouble(initial: Partial<PrometheusState> = {}): Promise<PrometheusDouble> {
  const state: PrometheusState = { queries: {}, alerts: [], ...initial };
  const requests: string[] = [];
  const authorizations: string[] = [];
  let alertAsks = 0;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    authorizations.push(req.headers.authorization ?? '');
    const api = url.pathname === '/api/v1/query' || url.pathname === '/api/v1/alerts';
    if (!api) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found\n');
    const allowed = url.pathname === '/api/v1/query' ? ['GET', 'POST'] : ['GET'];
    if (!allowed.includes(req.method ?? '')) return void res.writeHead(405).end('Method Not Allowed\n');
    if (state.broken) return void res.writeHead(state.broken.status).end(state.broken.body);
    if (url.pathname === '/api/v1/alerts') {
      alertAsks++;
      const alerts = typeof state.alerts === 'function' ? state.alerts(alertAsks) : state.alerts;
      const now = new Date().toISOString();
      const data = alerts.map((a) => ({ ...a, annotations: {}, activeAt: now, value: '1e+00' }));
      return send(res, 200, { status: 'success', data: { alerts: data } });
    }
    const params = req.method === 'POST' ? await formOf(req) : url.searchParams;
    const query = params.get('query');
    if (query === null) return badData(res, 'invalid parameter "query": query must not be empty');
    const syntax = promqlSyntaxError(query);
    if (syntax) return badData(res, `invalid parameter "query": ${syntax}`);
    send(res, 200, { status: 'success', data: vector(state.queries[query] ?? []) });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    requests,
    authorizations,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
