// The last drift run as Prometheus metrics in node_exporter's textfile format (pure): the text
// exposition format, `# HELP` and `# TYPE` before each family, all gauges (the file describes one
// run, and is replaced by the next).
//
// Zero series: `play_drift_items` has one series per host x playbook x status with a count above
// zero, none for zero (a fleet x playbooks x 4 statuses of zeros would be most of the file); so a
// query for a status nobody has is empty, not 0 (`sum(...) or vector(0)`). Every targeted host has
// `play_drift_host_up` (0 when unreachable), as Prometheus' own `up` says whether a target answered;
// and, when it was reached, `play_drift_host_drifted` (0 or 1), which is what an alert per host reads.
// An unreachable host has no `play_drift_host_drifted` series at all: a 0 would say "no drift" of a
// host nobody looked at (alert on `play_drift_host_up == 0` for that). A host whose probe failed was
// reached: it keeps its drifted value and has a `play_drift_host_problem{host,kind}` series of 1.
// `play_drift_playbook_checked` is 1 for each playbook checked, 0 for one the run left out (its reason
// is in the other reports).
import { countsAsDrift, type DriftRun } from '../model.js';
import { GROUPS, groupOf, hostOrder, playbookOrder, problemHosts } from './common.js';

interface Family {
  name: string;
  help: string;
  samples: [labels: Record<string, string>, value: number][];
}

export function renderMetrics(run: DriftRun): string {
  const problems = problemHosts(run);
  const out: string[] = [];
  for (const f of families(run, problems)) {
    out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} gauge`);
    for (const [labels, value] of f.samples) out.push(`${f.name}${labelSet(labels)} ${num(value)}`);
  }
  return `${out.join('\n')}\n`;
}

function families(run: DriftRun, problems: Map<string, 'unreachable' | 'failed'>): Family[] {
  const hosts = hostOrder(run);
  const drifted = new Set(run.items.filter(countsAsDrift).map((i) => i.host));
  const one = (name: string, help: string, value: number): Family => ({ name, help, samples: [[{}, value]] });
  return [
    {
      name: 'play_drift_items',
      help: 'Drift items of the last run by host, playbook and status (waived items only under waived).',
      samples: itemSamples(run),
    },
    {
      name: 'play_drift_host_up',
      help: 'Whether the last run reached the host (1) or found it unreachable (0), for every targeted host.',
      samples: hosts.map((host) => [{ host }, problems.get(host) === 'unreachable' ? 0 : 1]),
    },
    {
      name: 'play_drift_host_drifted',
      help: 'Whether the host had drift in the last run (1) or not (0), for every host reached (none when unreachable).',
      samples: hosts
        .filter((h) => problems.get(h) !== 'unreachable')
        .map((host) => [{ host }, drifted.has(host) ? 1 : 0]),
    },
    {
      name: 'play_drift_host_problem',
      help: 'Hosts the last run could not judge: unreachable, or a probe failed.',
      samples: hosts.filter((h) => problems.has(h)).map((host) => [{ host, kind: problems.get(host)! }, 1]),
    },
    {
      name: 'play_drift_playbook_checked',
      help: 'Whether the last run checked the playbook (1) or left it out (0; the reports say why).',
      samples: [
        ...playbookOrder(run).map((playbook): Family['samples'][number] => [{ playbook }, 1]),
        ...(run.skipped ?? []).map(({ playbook }): Family['samples'][number] => [{ playbook }, 0]),
      ],
    },
    one('play_drift_last_run_timestamp_seconds', 'When the last drift run started, in Unix time.', startSeconds(run)),
    one('play_drift_last_run_duration_seconds', 'How long the last drift run took.', run.durationMs / 1000),
    one('play_drift_hosts_unreachable', 'Hosts unreachable in the last run.', count(problems, 'unreachable')),
    one('play_drift_hosts_failed', 'Hosts whose probe failed in the last run.', count(problems, 'failed')),
    one(
      'play_drift_run_exit_code',
      'Exit code of the last run: 0 no drift, 2 drift, 3 failed, 4 unreachable.',
      run.exitCode,
    ),
  ];
}

/** One sample per host x playbook x status with a count above zero, in inventory and playbook order. */
function itemSamples(run: DriftRun): Family['samples'] {
  const n = new Map<string, number>();
  for (const i of run.items) {
    const key = JSON.stringify([i.host, i.playbook, groupOf(i)]);
    n.set(key, (n.get(key) ?? 0) + 1);
  }
  const samples: Family['samples'] = [];
  for (const host of hostOrder(run))
    for (const playbook of playbookOrder(run))
      for (const status of GROUPS) {
        const value = n.get(JSON.stringify([host, playbook, status]));
        if (value) samples.push([{ host, playbook, status }, value]);
      }
  return samples;
}

const count = (problems: Map<string, string>, kind: string) => [...problems.values()].filter((k) => k === kind).length;

function startSeconds(run: DriftRun): number {
  return Date.parse(run.startedAt) / 1000;
}

function labelSet(labels: Record<string, string>): string {
  const pairs = Object.entries(labels).map(([k, v]) => `${k}="${labelValue(v)}"`);
  return pairs.length ? `{${pairs.join(',')}}` : '';
}

/** Label values escape `\`, `"` and newline (the exposition format); they must be valid UTF-8. */
function labelValue(v: string): string {
  return v.replace(/[\uD800-\uDFFF]/gu, '\uFFFD').replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/** Go's ParseFloat reads what JS prints, except the non-finite values. */
function num(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+Inf' : '-Inf';
  return String(v);
}
