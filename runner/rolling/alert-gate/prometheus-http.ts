// Asking Prometheus' HTTP API (GET /api/v1/query?query=..., GET /api/v1/alerts) with Node's fetch,
// each request bounded by a timeout. Credentials come from the environment only (never a flag, never
// the journal): PLAY_PROMETHEUS_TOKEN as a bearer token, or PLAY_PROMETHEUS_USER with
// PLAY_PROMETHEUS_PASSWORD as basic auth; both are Secrets, masked wherever they could be printed.
import { UsageError } from '../../core/errors.js';
import { fetchFailure } from '../../core/notify-post.js';
import { Secret } from '../../core/secret.js';
import type { HttpAnswer } from './verdict.js';

/** One GET of an API path (`api/v1/alerts`) with its query parameters. */
export type PrometheusAsk = (path: string, params?: Record<string, string>) => Promise<HttpAnswer>;

/** How to authenticate, from the environment: a header's value (masked), or none. */
export function prometheusAuth(env: NodeJS.ProcessEnv): Secret | null {
  const token = env.PLAY_PROMETHEUS_TOKEN;
  const user = env.PLAY_PROMETHEUS_USER;
  const password = env.PLAY_PROMETHEUS_PASSWORD;
  if (token) return new Secret(`Bearer ${token}`, 'env:PLAY_PROMETHEUS_TOKEN');
  if (!user && !password) return null;
  if (!user || !password)
    throw new UsageError(
      `${user ? 'PLAY_PROMETHEUS_PASSWORD' : 'PLAY_PROMETHEUS_USER'} is not set: basic auth to Prometheus needs both PLAY_PROMETHEUS_USER and PLAY_PROMETHEUS_PASSWORD`,
    );
  return new Secret(`Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, 'env:PLAY_PROMETHEUS_USER');
}

/** Asks the Prometheus at `base` (its URL, no credentials); each request gives up after timeoutMs. */
export function prometheusAsker(base: string, auth: Secret | null, timeoutMs = 10_000): PrometheusAsk {
  return async (path, params = {}) => {
    const url = new URL(`${base}/${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    try {
      const r = await fetch(url, {
        headers: { accept: 'application/json', ...(auth && { authorization: auth.reveal() }) },
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: r.status, body: await r.text() };
    } catch (e) {
      return { failed: fetchFailure(e, url.href, timeoutMs) };
    }
  };
}
