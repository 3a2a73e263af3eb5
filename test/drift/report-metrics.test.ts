// The Prometheus textfile report (runner/drift/report/metrics.ts): compared whole, label values
// escaped, the exposition format's structure checked here, and by `promtool check metrics` where
// promtool is installed (Debian package `prometheus`; PROMTOOL=/path names another one).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { renderMetrics } from '../../runner/drift/report/metrics.js';
import { emptyRun, expected, fixtureRun } from './fixtures.js';

function hostileRun() {
  const run = fixtureRun();
  const host = 'a"b\\c\nd';
  run.hosts = [host];
  run.items = [{ ...run.items[2]!, host, playbook: 'p"\\' }];
  run.problems = [];
  return run;
}

test('the fixture run renders as the expected metrics, whole', (t) => {
  t.is(renderMetrics(fixtureRun()), expected('report.prom'));
});

test('a run with no drift has its host gauges and no item series', (t) => {
  const out = renderMetrics(emptyRun());
  t.is(
    out
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n'),
    [
      'play_drift_host_up{host="tor1"} 1',
      'play_drift_host_up{host="tor2"} 1',
      'play_drift_host_drifted{host="tor1"} 0',
      'play_drift_host_drifted{host="tor2"} 0',
      'play_drift_playbook_checked{playbook="tor-gateway"} 1',
      'play_drift_last_run_timestamp_seconds 1714521600',
      'play_drift_last_run_duration_seconds 0.812',
      'play_drift_hosts_unreachable 0',
      'play_drift_hosts_failed 0',
      'play_drift_run_exit_code 0',
      '',
    ].join('\n'),
  );
});

test('label values escape backslash, double quote and newline', (t) => {
  const lines = renderMetrics(hostileRun()).split('\n');
  t.true(lines.includes('play_drift_items{host="a\\"b\\\\c\\nd",playbook="p\\"\\\\",status="new"} 1'));
  t.true(lines.includes('play_drift_host_drifted{host="a\\"b\\\\c\\nd"} 1'));
});

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"';
const SAMPLE = new RegExp(`^(${NAME})(\\{${LABEL}(?:,${LABEL})*\\})? (-?[0-9.e+]+|NaN|[+-]Inf)$`);

/** The text format's rules this report relies on: HELP then TYPE then the family's samples, valid
 *  names, escaped label values, every series once, a newline at the end. */
function checkExposition(text: string): void {
  if (!text.endsWith('\n')) throw new Error('no final newline');
  const seen = new Set<string>();
  const families = new Set<string>();
  let family = '';
  for (const line of text.slice(0, -1).split('\n')) {
    const help = new RegExp(`^# HELP (${NAME}) \\S`).exec(line);
    if (help) {
      if (families.has(help[1]!)) throw new Error(`family ${help[1]} twice`);
      families.add((family = help[1]!));
      continue;
    }
    if (line === `# TYPE ${family} gauge`) continue;
    const m = SAMPLE.exec(line);
    if (!m || m[1] !== family) throw new Error(`not a sample of ${family}: ${line}`);
    if (seen.has(line.replace(/ [^ ]+$/, ''))) throw new Error(`series twice: ${line}`);
    seen.add(line.replace(/ [^ ]+$/, ''));
  }
}

test('the output follows the exposition format', (t) => {
  for (const run of [fixtureRun(), emptyRun(), hostileRun()]) t.notThrows(() => checkExposition(renderMetrics(run)));
  t.throws(() => checkExposition('# HELP x y\n# TYPE x gauge\nx{a="\n"} 1\n'));
});

// Not skipped when promtool is absent: the test asserts that promtool is absent (spawn fails with
// ENOENT, nothing else) or that `promtool check metrics` accepts every output, so a promtool that is
// there but rejects the file, or fails to start, fails the test.
test('promtool check metrics accepts the output, where promtool is installed', (t) => {
  const promtool = process.env.PROMTOOL || 'promtool';
  for (const run of [fixtureRun(), emptyRun(), hostileRun()]) {
    const r = spawnSync(promtool, ['check', 'metrics'], { input: renderMetrics(run), encoding: 'utf8' });
    if ((r.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      t.log(`promtool is not installed (Debian package prometheus): not run; the format test above still ran`);
      t.is((r.error as NodeJS.ErrnoException).code, 'ENOENT', 'only a missing promtool is a reason not to check');
      return;
    }
    t.is(r.error, undefined);
    t.is(r.status, 0, `promtool check metrics: ${r.stdout}${r.stderr}`);
  }
});
