// The alert gate's verdict from Prometheus' answers (runner/rolling/alert-gate/verdict.ts), as tables:
// a query with series or an alert in state firing holds the run; every way of not knowing (unreachable,
// an HTTP error, `status: error`, JSON that is not Prometheus' envelope, a scalar) holds it too.
import test from 'ava';
import { alertFindings, gateVerdict, type HttpAnswer, queryFinding } from '../../runner/rolling/alert-gate/verdict.js';

const ok = (data: unknown, status = 200): HttpAnswer => ({ status, body: JSON.stringify({ status: 'success', data }) });
const vector = (...metrics: Record<string, string>[]) =>
  ok({ resultType: 'vector', result: metrics.map((metric) => ({ metric, value: [1, '0'] })) });
const alerts = (...list: { name: string; state: string; labels?: Record<string, string> }[]) =>
  ok({ alerts: list.map((a) => ({ labels: { alertname: a.name, ...a.labels }, state: a.state, annotations: {} })) });

const PROM = 'http://prometheus:9090';
const Q = 'up{job="node"} == 0';

test('a query: its answer, the finding and the verdict', (t) => {
  const answers: Record<string, HttpAnswer> = {
    'an empty vector': vector(),
    'a vector with two series': vector(
      { __name__: 'up', job: 'node', instance: 'linux3:9100' },
      { __name__: 'up', job: 'node', instance: 'linux2:9100' },
    ),
    'five series': vector(...['a', 'b', 'c', 'd', 'e'].map((i) => ({ instance: i }))),
    'a range query matrix': ok({ resultType: 'matrix', result: [{ metric: { node: 'n1' }, values: [] }] }),
    'a scalar': ok({ resultType: 'scalar', result: [1, '1'] }),
    bad_data: {
      status: 400,
      body: JSON.stringify({ status: 'error', errorType: 'bad_data', error: '1:5: parse error: unclosed left brace' }),
    },
    unreachable: { failed: 'ECONNREFUSED' },
    'a proxy page': { status: 502, body: '<html>Bad Gateway</html>' },
    'malformed JSON': { status: 200, body: '{"status":"success","data":' },
    'JSON without the envelope': { status: 200, body: '{"result":[]}' },
    'success without a result list': ok({ resultType: 'vector' }),
  };
  const table = Object.fromEntries(
    Object.entries(answers).map(([k, a]) => [k, gateVerdict([queryFinding(Q, a)], PROM)]),
  );
  const cant = `Prometheus ${PROM} could not tell (the gate holds until it can): query \`${Q}\`: `;
  t.deepEqual(table, {
    'an empty vector': null,
    'a vector with two series': `query \`${Q}\` returned 2 series: up{instance="linux3:9100", job="node"}, up{instance="linux2:9100", job="node"}`,
    'five series': `query \`${Q}\` returned 5 series: {instance="a"}, {instance="b"}, {instance="c"} and 2 more`,
    'a range query matrix': `query \`${Q}\` returned 1 series: {node="n1"}`,
    'a scalar': `${cant}returned a scalar, not series: write it to select the series that mean trouble (e.g. up == 0)`,
    bad_data: `${cant}HTTP 400 bad_data: 1:5: parse error: unclosed left brace`,
    unreachable: `${cant}unreachable (ECONNREFUSED)`,
    'a proxy page': `${cant}HTTP 502, not Prometheus' JSON: <html>Bad Gateway</html>`,
    'malformed JSON': `${cant}HTTP 200, not Prometheus' JSON: {"status":"success","data":`,
    'JSON without the envelope': `${cant}HTTP 200, not Prometheus' answer (no status "success" with data)`,
    'success without a result list': `${cant}no result list in the answer`,
  });
});

test('alerts: only a firing alert of a name asked about holds the run; pending has not fired yet', (t) => {
  const names = ['NodeDown', 'ClusterDegraded'];
  const answers: Record<string, HttpAnswer> = {
    'no alerts': alerts(),
    'NodeDown firing twice': alerts(
      { name: 'NodeDown', state: 'firing', labels: { instance: 'linux2', severity: 'page' } },
      { name: 'NodeDown', state: 'firing', labels: { instance: 'linux3' } },
    ),
    'NodeDown pending': alerts({ name: 'NodeDown', state: 'pending' }),
    'another alert firing': alerts({ name: 'DiskFull', state: 'firing' }),
    'both firing': alerts({ name: 'ClusterDegraded', state: 'firing' }, { name: 'NodeDown', state: 'firing' }),
    unreachable: { failed: 'no answer within 10000 ms' },
    'status error': {
      status: 503,
      body: JSON.stringify({ status: 'error', errorType: 'timeout', error: 'query timed out' }),
    },
    'no alert list': ok({}),
  };
  const table = Object.fromEntries(
    Object.entries(answers).map(([k, a]) => [k, gateVerdict(alertFindings(names, a), PROM)]),
  );
  const cant = `Prometheus ${PROM} could not tell (the gate holds until it can): `;
  t.deepEqual(table, {
    'no alerts': null,
    'NodeDown firing twice': 'alert NodeDown firing {instance="linux2", severity="page"}, {instance="linux3"}',
    'NodeDown pending': null,
    'another alert firing': null,
    'both firing': 'alert NodeDown firing; alert ClusterDegraded firing',
    unreachable: `${cant}alert NodeDown: unreachable (no answer within 10000 ms); alert ClusterDegraded: unreachable (no answer within 10000 ms)`,
    'status error': `${cant}alert NodeDown: HTTP 503 timeout: query timed out; alert ClusterDegraded: HTTP 503 timeout: query timed out`,
    'no alert list': `${cant}alert NodeDown: no alert list in the answer; alert ClusterDegraded: no alert list in the answer`,
  });
});

test('firing and not knowing together: what fires first, then what could not be asked', (t) => {
  const findings = [
    queryFinding(Q, { failed: 'ECONNRESET' }),
    ...alertFindings(['NodeDown'], alerts({ name: 'NodeDown', state: 'firing', labels: { node: 'node3' } })),
  ];
  t.is(
    gateVerdict(findings, PROM),
    `alert NodeDown firing {node="node3"}; Prometheus ${PROM} could not tell (the gate holds until it can): query \`${Q}\`: unreachable (ECONNRESET)`,
  );
});
