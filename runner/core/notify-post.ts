// Posting a JSON message to a webhook (play drift --notify, a rolling run's --notify): failed posts are
// retried with backoff, each attempt bounded by a timeout; the last failure is returned for the run's
// record, never thrown (a notification is never a reason to exit non-zero by itself). The URL itself
// often is a secret (a chat webhook's token sits in its path or query): messages show only notifyTarget().
import pRetry from 'p-retry';

export interface NotifyOptions {
  /** Attempts in all (default 4). */
  attempts?: number;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Before the 2nd attempt; doubled each time (default 1 s). */
  backoffMs?: number;
  /** For tests: the waits between attempts. */
  sleep?: (ms: number) => Promise<void>;
}

function parsedUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * The URL as messages, logs and reports show it: scheme, host and port, never the userinfo, path or
 * query where a webhook keeps its token (`https://hooks.example.com/…`).
 */
export function notifyTarget(url: string): string {
  const u = parsedUrl(url);
  if (u === null) return 'an invalid URL (not shown)';
  if (u.host === '') return `${u.protocol}…`;
  const bare = u.pathname === '/' && !u.search && !u.hash && !u.username && !u.password;
  return `${u.protocol}//${u.host}/${bare ? '' : '…'}`;
}

/** `text` without the URL as given or as normalized, should an error quote it. */
export function hideUrl(text: string, url: string, target = notifyTarget(url)): string {
  const href = parsedUrl(url)?.href ?? url;
  return text.split(url).join(target).split(href).join(target);
}

/** Why a fetch threw, in a few words and without the URL: a timeout, a socket error's code, or its message. */
export function fetchFailure(e: unknown, url: string, timeoutMs: number): string {
  const err = e as Error & { cause?: { code?: string } };
  if (err.name === 'TimeoutError') return `no answer within ${timeoutMs} ms`;
  return err.cause?.code ?? hideUrl(err.message, url);
}

/** A receiver's answer other than 2xx. */
class HttpFailure extends Error {
  constructor(
    readonly status: number,
    statusText: string,
  ) {
    super(`HTTP ${status} ${statusText}`.trim());
  }

  /** A client error will not get better by trying again (except 408 and 429). */
  get final(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408 && this.status !== 429;
  }
}

/** Posts the message; returns null on success, else why the last attempt failed. */
export async function postNotification(url: string, body: unknown, o: NotifyOptions = {}): Promise<string | null> {
  const target = notifyTarget(url);
  if (!/^https?:$/.test(parsedUrl(url)?.protocol ?? ''))
    return `--notify ${target}: expected an http:// or https:// URL`;
  const attempts = Math.max(1, o.attempts ?? 4);
  const timeoutMs = o.timeoutMs ?? 10_000;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let made = 0;
  const post = async () => {
    made++;
    const r = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!r.ok) throw new HttpFailure(r.status, r.statusText);
  };
  try {
    await pRetry(post, {
      retries: attempts - 1,
      // The waits are `sleep`'s (p-retry's documented way to a delay of one's own), so tests see them.
      minTimeout: 0,
      shouldRetry: ({ error }) => !(error instanceof HttpFailure && error.final),
      onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
        if (retriesLeft > 0 && !(error instanceof HttpFailure && error.final))
          await sleep((o.backoffMs ?? 1000) * 2 ** (attemptNumber - 1));
      },
    });
    return null;
  } catch (e) {
    const why = e instanceof HttpFailure ? e.message : fetchFailure(e, url, timeoutMs);
    return `--notify ${target}: ${why} (after ${made} attempt${made === 1 ? '' : 's'})`;
  }
}
