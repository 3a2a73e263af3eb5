// Telling people about drift only when it changes: a run with new or resolved items posts
// one JSON message to --notify URL; a run that only repeats persisting items posts nothing. Failed
// posts are retried with backoff, each attempt bounded by a timeout; the last failure is returned
// for the run's record, never thrown (a notification is never a reason to exit non-zero by itself).
// Values in the message are the run's, already masked: no secret can appear in it. The URL itself
// often is one (a chat webhook's token sits in its path or query): messages show only notifyTarget().
import { type DriftItem, type DriftRun, countsAsDrift } from './model.js';

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

const brief = (i: DriftItem) => ({
  host: i.host,
  playbook: i.playbook,
  task: i.task,
  ...(i.target ? { target: i.target } : {}),
  title: i.title,
  action: i.action,
  fields: i.fields,
  before: i.before,
  after: i.after,
  firstSeen: i.firstSeen,
  ...(i.waiver ? { waiver: i.waiver } : {}),
});

/** The message for a run, or null when nothing changed since the previous run (no new, no resolved). */
export function notificationOf(run: DriftRun): Record<string, unknown> | null {
  const fresh = run.items.filter((i) => i.status === 'new' && countsAsDrift(i));
  const resolved = run.items.filter((i) => i.status === 'resolved');
  if (fresh.length === 0 && resolved.length === 0) return null;
  return {
    text: `play drift run ${run.id}: ${fresh.length} new, ${resolved.length} resolved, ${run.counts.drifted} drifted in all`,
    run: run.id,
    startedAt: run.startedAt,
    inventory: run.inventory,
    playbooks: run.playbooks,
    counts: run.counts,
    exitCode: run.exitCode,
    new: fresh.map(brief),
    resolved: resolved.map(brief),
    problems: run.problems,
  };
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
function hideUrl(text: string, url: string, target: string): string {
  const href = parsedUrl(url)?.href ?? url;
  return text.split(url).join(target).split(href).join(target);
}

/** Posts the message; returns null on success, else why the last attempt failed. */
export async function postNotification(url: string, body: unknown, o: NotifyOptions = {}): Promise<string | null> {
  const target = notifyTarget(url);
  if (!/^https?:$/.test(parsedUrl(url)?.protocol ?? ''))
    return `--notify ${target}: expected an http:// or https:// URL`;
  const attempts = o.attempts ?? 4;
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let why = 'not attempted';
  let made = 0;
  for (let n = 0; n < attempts; n++) {
    made++;
    if (n > 0) await sleep((o.backoffMs ?? 1000) * 2 ** (n - 1));
    try {
      const r = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(o.timeoutMs ?? 10_000),
      });
      if (r.ok) return null;
      why = `HTTP ${r.status} ${r.statusText}`.trim();
      // A client error will not get better by trying again (except 408 and 429).
      if (r.status >= 400 && r.status < 500 && r.status !== 408 && r.status !== 429) break;
    } catch (e) {
      const err = e as Error & { cause?: { code?: string } };
      why =
        err.name === 'TimeoutError'
          ? `no answer within ${o.timeoutMs ?? 10_000} ms`
          : (err.cause?.code ?? hideUrl(err.message, url, target));
    }
  }
  return `--notify ${target}: ${why} (after ${made} attempt${made === 1 ? '' : 's'})`;
}
