// The alert gate's settings (runner/rolling/alert-gate/spec.ts through rollingPolicy): the playbook's
// rolling.alertGate with --gate-* over it, and every refusal naming the flag (64) or the playbook path (65).
import test from 'ava';
import { rollingPolicy, type RollingOverrides } from '../../runner/rolling/policy.js';
import type { RollingSpec } from '../../runner/rolling/model.js';
import { RollingOptionError } from '../../runner/rolling/serial.js';

const gateOf = (spec: RollingSpec, flags: RollingOverrides) => {
  try {
    return rollingPolicy(spec, flags, 'pb.ts').prometheusGate ?? null;
  } catch (e) {
    if (!(e instanceof RollingOptionError)) throw e;
    return { field: e.field, message: e.message };
  }
};

const FILE: RollingSpec = {
  alertGate: { prometheus: 'http://prom:9090/', queries: ['up == 0'], alerts: ['NodeDown'] },
};

test('the gate from the playbook, the flags, or both (a flag replaces its field whole)', (t) => {
  const rows: [string, RollingSpec, RollingOverrides][] = [
    ['none', {}, {}],
    ['the playbook alone', FILE, {}],
    ['flags alone', {}, { gatePrometheus: 'https://mon.example.com/prometheus', gateAlert: ['A', ' B '] }],
    [
      'a flag over the file',
      FILE,
      { gateQuery: ['sum(kube_node_status_condition{condition="Ready",status="false"}) > 0'] },
    ],
    ['another Prometheus, same questions', FILE, { gatePrometheus: 'http://other:9090' }],
  ];
  t.deepEqual(
    rows.map(([name, spec, flags]) => [name, gateOf(spec, flags)]),
    [
      ['none', null],
      ['the playbook alone', { prometheus: 'http://prom:9090', queries: ['up == 0'], alerts: ['NodeDown'] }],
      ['flags alone', { prometheus: 'https://mon.example.com/prometheus', queries: [], alerts: ['A', 'B'] }],
      [
        'a flag over the file',
        {
          prometheus: 'http://prom:9090',
          queries: ['sum(kube_node_status_condition{condition="Ready",status="false"}) > 0'],
          alerts: ['NodeDown'],
        },
      ],
      [
        'another Prometheus, same questions',
        { prometheus: 'http://other:9090', queries: ['up == 0'], alerts: ['NodeDown'] },
      ],
    ],
  );
});

test('refusals name the flag or the playbook path, and never echo a URL that may hold a token', (t) => {
  const rows: [string, RollingSpec, RollingOverrides][] = [
    ['a query without Prometheus', {}, { gateQuery: ['up == 0'] }],
    ['Prometheus with nothing to watch', {}, { gatePrometheus: 'http://prom:9090' }],
    ['credentials in the URL', {}, { gatePrometheus: 'http://admin:s3cret@prom:9090', gateAlert: ['A'] }],
    ['a token in the query', {}, { gatePrometheus: 'http://prom:9090/?token=T0K3N', gateAlert: ['A'] }],
    ['not a URL', {}, { gatePrometheus: 'prom:9090', gateAlert: ['A'] }],
    ['an empty query', {}, { gatePrometheus: 'http://prom:9090', gateQuery: [' '] }],
    ['an alert name with a space', {}, { gatePrometheus: 'http://prom:9090', gateAlert: ['Node Down'] }],
    ['file: not a mapping', { alertGate: 'http://prom:9090' as never }, {}],
    ['file: an unknown field', { alertGate: { prometheus: 'http://p:9090', alert: ['A'] } as never }, {}],
    ['file: queries not a list', { alertGate: { prometheus: 'http://p:9090', queries: 'up == 0' as never } }, {}],
    ['file: alerts without prometheus', { alertGate: { alerts: ['A'] } }, {}],
    ['file: prometheus alone', { alertGate: { prometheus: 'http://p:9090' } }, {}],
  ];
  const credentials =
    'credentials in the URL would be recorded in the journal; set PLAY_PROMETHEUS_TOKEN (a bearer token) or PLAY_PROMETHEUS_USER and PLAY_PROMETHEUS_PASSWORD instead';
  const url = "expected Prometheus' http:// or https:// URL without a query (e.g. http://prometheus:9090), got";
  const watch =
    'name what to watch: --gate-query PROMQL or --gate-alert NAME (each repeatable), or rolling.alertGate.queries/alerts';
  t.deepEqual(Object.fromEntries(rows.map(([name, spec, flags]) => [name, gateOf(spec, flags)])), {
    'a query without Prometheus': {
      field: '--gate-query',
      message: '--gate-query: needs --gate-prometheus URL, the Prometheus to ask',
    },
    'Prometheus with nothing to watch': { field: '--gate-prometheus', message: `--gate-prometheus: ${watch}` },
    'credentials in the URL': { field: '--gate-prometheus', message: `--gate-prometheus: ${credentials}` },
    'a token in the query': { field: '--gate-prometheus', message: `--gate-prometheus: ${url} another URL` },
    'not a URL': { field: '--gate-prometheus', message: `--gate-prometheus: ${url} another URL` },
    'an empty query': { field: '--gate-query', message: '--gate-query: expected a PromQL query, got " "' },
    'an alert name with a space': {
      field: '--gate-alert',
      message: '--gate-alert: expected an alert name, got "Node Down"',
    },
    'file: not a mapping': {
      field: 'rolling.alertGate',
      message: 'pb.ts: rolling.alertGate: expected a mapping { prometheus, queries, alerts }, got "http://prom:9090"',
    },
    'file: an unknown field': {
      field: 'rolling.alertGate.alert',
      message: 'pb.ts: rolling.alertGate.alert: unknown option (known: prometheus, queries, alerts)',
    },
    'file: queries not a list': {
      field: 'rolling.alertGate.queries',
      message: 'pb.ts: rolling.alertGate.queries: expected a list, each a PromQL query, got "up == 0"',
    },
    'file: alerts without prometheus': {
      field: 'rolling.alertGate.prometheus',
      message: 'pb.ts: rolling.alertGate.prometheus: required with queries or alerts',
    },
    'file: prometheus alone': {
      field: 'rolling.alertGate.alerts',
      message: `pb.ts: rolling.alertGate.alerts: ${watch}`,
    },
  });
});
