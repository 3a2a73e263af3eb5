// The run and its items as JSON (pure): the DriftRun with what every report kind carries
// (schemaVersion, kind, summary: docs/reports.md), so `JSON.parse` of the output is `driftReport(run)`.
// Key order is stable whatever order the object was built in (from the store or in memory): the
// model's own order for its records, then any other key sorted; keys inside field values
// (before/after), whose order comes from a probe, are sorted.
import { REPORT_SCHEMA_VERSION } from '../../report/schema-version.js';
import { type DriftRun, type DriftSummary, driftSummary, type HostStatus, hostStatus } from '../model.js';

export interface DriftReport extends DriftRun {
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  kind: 'drift';
  summary: DriftSummary;
  /** Each targeted host: drifted, ok, unreachable (never ok) or failed. */
  hostStatus: Record<string, HostStatus>;
}

/** The run as a report: its own fields, and the version, kind and host summary of every report. */
export function driftReport(run: DriftRun): DriftReport {
  return {
    ...run,
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'drift',
    summary: driftSummary(run),
    hostStatus: hostStatus(run),
  };
}

const RUN_KEYS = [
  'schemaVersion',
  'kind',
  'id',
  'startedAt',
  'durationMs',
  'playbooks',
  'skipped',
  'inventory',
  'hosts',
  'hostStatus',
  'counts',
  'summary',
  'exitCode',
  'notifyError',
  'warnings',
  'problems',
  'items',
];
const COUNT_KEYS = ['new', 'persisting', 'resolved', 'waived', 'drifted', 'unreachable', 'failed'];
const SUMMARY_KEYS = ['ok', 'changed', 'failed', 'skipped', 'unreachable', 'interrupted', 'driftedItems'];
const PROBLEM_KEYS = ['host', 'kind', 'playbook', 'task', 'message'];
const ITEM_KEYS = [
  'host',
  'playbook',
  'task',
  'target',
  'kind',
  'title',
  'status',
  'firstSeen',
  'action',
  'fields',
  'before',
  'after',
  'textDiff',
  'unknownReason',
  'waiver',
];
const WAIVER_KEYS = ['reason', 'expires', 'expired', 'source'];

export function renderJson(run: DriftRun): string {
  const ordered = record(driftReport(run), RUN_KEYS, {
    counts: (c) => record(c, COUNT_KEYS),
    summary: (s) => record(s, SUMMARY_KEYS),
    skipped: (ss) => (ss as object[]).map((x) => record(x, ['playbook', 'reason'])),
    hostStatus: (h) => h,
    problems: (ps) => (ps as object[]).map((p) => record(p, PROBLEM_KEYS)),
    items: (is) => (is as object[]).map(item),
  });
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

function item(i: unknown): unknown {
  return record(i, ITEM_KEYS, {
    before: canonical,
    after: canonical,
    waiver: (w) => record(w, WAIVER_KEYS),
  });
}

type Mapper = (v: unknown) => unknown;

/** `known` keys first in that order, then the others sorted; `map` reorders nested records. */
function record(obj: unknown, known: readonly string[], map: Record<string, Mapper> = {}): unknown {
  const value = jsonValue(obj);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return canonical(value);
  const rest = Object.keys(value)
    .filter((k) => !known.includes(k))
    .sort();
  const out: Record<string, unknown> = {};
  for (const k of [...known, ...rest]) {
    if (!Object.hasOwn(value, k)) continue;
    const v = (value as Record<string, unknown>)[k];
    out[k] = map[k] ? map[k](v) : canonical(v);
  }
  return out;
}

/** A JSON-like value with every object's keys sorted, arrays kept in order. */
function canonical(v: unknown): unknown {
  const value = jsonValue(v);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonical);
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = canonical((value as Record<string, unknown>)[k]);
  return out;
}

/** What JSON.stringify would serialize: `toJSON` first (a Secret becomes its mask, a Date its ISO text). */
function jsonValue(v: unknown): unknown {
  const toJSON = (v as { toJSON?: unknown } | null)?.toJSON;
  return typeof toJSON === 'function' ? toJSON.call(v) : v;
}
