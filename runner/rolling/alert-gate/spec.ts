// The alert gate's settings: the playbook's `rolling.alertGate` ({ prometheus, queries, alerts }) with
// --gate-prometheus, --gate-query and --gate-alert over it (a flag given replaces that field whole).
// The URL is recorded in the journal with the run's policy and shown in pause reasons, so it may carry
// no credentials, query or fragment: a token comes from the environment (prometheus-http.ts). Pure.
import type { AlertGate } from '../model.js';
import { RollingOptionError, shown } from '../serial.js';

/** The command line's gate flags, as yargs gives them. */
export interface AlertGateFlags {
  gatePrometheus?: string;
  gateQuery?: readonly string[];
  gateAlert?: readonly string[];
}

const FIELDS = ['prometheus', 'queries', 'alerts'] as const;

/** The gate from the playbook's block (at `where`) and the flags; null when neither names a Prometheus. */
export function alertGateOf(block: unknown, flags: AlertGateFlags, where: string): AlertGate | null {
  const file = block === undefined ? {} : fileGate(block, where);
  const at = (f: string) => [`rolling.alertGate.${f}`, `${where}: rolling.alertGate.${f}`] as const;
  const prometheus =
    flags.gatePrometheus !== undefined
      ? prometheusUrl(flags.gatePrometheus, '--gate-prometheus', '--gate-prometheus')
      : file.prometheus;
  const queries =
    flags.gateQuery !== undefined ? texts(flags.gateQuery, 'a PromQL query', '--gate-query') : (file.queries ?? []);
  const alerts =
    flags.gateAlert !== undefined ? texts(flags.gateAlert, 'an alert name', '--gate-alert') : (file.alerts ?? []);
  if (prometheus === undefined) {
    const flag = flags.gateQuery !== undefined ? '--gate-query' : flags.gateAlert !== undefined ? '--gate-alert' : null;
    if (flag) throw new RollingOptionError(flag, `${flag}: needs --gate-prometheus URL, the Prometheus to ask`);
    if (queries.length || alerts.length)
      throw new RollingOptionError(at('prometheus')[0], `${at('prometheus')[1]}: required with queries or alerts`);
    return null;
  }
  if (queries.length === 0 && alerts.length === 0) {
    const [field, text] =
      flags.gatePrometheus !== undefined ? ['--gate-prometheus', '--gate-prometheus'] : at('alerts');
    throw new RollingOptionError(
      field,
      `${text}: name what to watch: --gate-query PROMQL or --gate-alert NAME (each repeatable), or rolling.alertGate.queries/alerts`,
    );
  }
  return { prometheus, queries, alerts };
}

/** The playbook's block alone, each field checked. */
function fileGate(block: unknown, where: string): Partial<AlertGate> {
  if (typeof block !== 'object' || block === null || Array.isArray(block))
    throw new RollingOptionError(
      'rolling.alertGate',
      `${where}: rolling.alertGate: expected a mapping { prometheus, queries, alerts }, got ${shown(block)}`,
    );
  const b = block as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknown !== undefined)
    throw new RollingOptionError(
      `rolling.alertGate.${unknown}`,
      `${where}: rolling.alertGate.${unknown}: unknown option (known: ${FIELDS.join(', ')})`,
    );
  const at = (f: string) => [`rolling.alertGate.${f}`, `${where}: rolling.alertGate.${f}`] as const;
  return {
    ...(b.prometheus !== undefined && { prometheus: prometheusUrl(b.prometheus, ...at('prometheus')) }),
    ...(b.queries !== undefined && { queries: list(b.queries, 'a PromQL query', ...at('queries')) }),
    ...(b.alerts !== undefined && { alerts: list(b.alerts, 'an alert name', ...at('alerts')) }),
  };
}

function list(value: unknown, what: string, field: string, where: string): string[] {
  if (!Array.isArray(value))
    throw new RollingOptionError(field, `${where}: expected a list, each ${what}, got ${shown(value)}`);
  return texts(value, what, field, where);
}

/** Non-empty texts (an alert name without spaces), trimmed. */
function texts(values: readonly unknown[], what: string, field: string, where = field): string[] {
  return values.map((v) => {
    const ok = typeof v === 'string' && v.trim() !== '' && (what !== 'an alert name' || !/\s/.test(v.trim()));
    if (!ok) throw new RollingOptionError(field, `${where}: expected ${what}, got ${shown(v)}`);
    return (v as string).trim();
  });
}

/** An http(s) URL without credentials, query or fragment, without its trailing slash. */
function prometheusUrl(value: unknown, field: string, where: string): string {
  let u: URL | null = null;
  try {
    u = typeof value === 'string' ? new URL(value) : null;
  } catch {}
  if (!u || !/^https?:$/.test(u.protocol) || u.search || u.hash)
    throw new RollingOptionError(
      field,
      `${where}: expected Prometheus' http:// or https:// URL without a query (e.g. http://prometheus:9090), got ${u ? 'another URL' : shown(typeof value === 'string' ? 'text that is not a URL' : value)}`,
    );
  if (u.username || u.password)
    throw new RollingOptionError(
      field,
      `${where}: credentials in the URL would be recorded in the journal; set PLAY_PROMETHEUS_TOKEN (a bearer token) or PLAY_PROMETHEUS_USER and PLAY_PROMETHEUS_PASSWORD instead`,
    );
  return u.href.replace(/\/+$/, '');
}
