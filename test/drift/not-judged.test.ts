// A host that could not be judged is never "no drift", and a playbook left out is named: the text
// summary (runner/drift/text.ts), the reports' summary line (report/common.ts) and the per-host
// status of the JSON report (model.ts hostStatus), for runs with and without such hosts. Tables whole.
import test from 'ava';
import { countItems, type DriftRun, driftExit, type HostProblem, hostStatus } from '../../runner/drift/model.js';
import { summaryLine } from '../../runner/drift/report/common.js';
import { driftRunText } from '../../runner/drift/text.js';
import { emptyRun, fixtureItems } from './fixtures.js';

const down = (host: string): HostProblem => ({ host, kind: 'unreachable', message: 'connect ECONNREFUSED' });

function run(problems: HostProblem[], drifted = false, skipped = false): DriftRun {
  const items = drifted ? fixtureItems().filter((i) => i.host === 'tor2' && i.task === 'keepalived config') : [];
  const counts = countItems(items, problems);
  return {
    ...emptyRun(),
    items,
    problems,
    counts,
    exitCode: driftExit(counts),
    ...(skipped ? { skipped: [{ playbook: 'onboard-windows', reason: 'no host in group control' }] } : {}),
  };
}

const RUNS: [string, DriftRun][] = [
  ['all judged, clean', run([])],
  ['one of two unreachable', run([down('tor1')])],
  ['both unreachable', run([down('tor1'), down('tor2')])],
  ['drift and one unreachable', run([down('tor1')], true)],
  ['a playbook left out', run([], false, true)],
];

test('the text summary: "no drift" only when every host was judged', (t) => {
  t.deepEqual(
    RUNS.map(([what, r]) => [
      what,
      driftRunText(r)
        .split('\n')
        .filter((l) => !/^ {6}/.test(l)),
    ]),
    [
      [
        'all judged, clean',
        ['drift run 1: no drift (0 new, 0 persisting, 0 resolved) on 2 hosts, tor-gateway, 0.8 s', ''],
      ],
      [
        'one of two unreachable',
        [
          'drift run 1: no drift on 1 of 2 hosts (0 new, 0 persisting, 0 resolved, 1 unreachable) on 2 hosts, tor-gateway, 0.8 s',
          '  unreachable tor1: connect ECONNREFUSED',
          '',
        ],
      ],
      [
        'both unreachable',
        [
          'drift run 1: no host judged (0 new, 0 persisting, 0 resolved, 2 unreachable) on 2 hosts, tor-gateway, 0.8 s',
          '  unreachable tor1: connect ECONNREFUSED',
          '  unreachable tor2: connect ECONNREFUSED',
          '',
        ],
      ],
      [
        'drift and one unreachable',
        [
          'drift run 1: 1 item drifted (1 new, 0 persisting, 0 resolved, 1 unreachable) on 2 hosts, tor-gateway, 0.8 s',
          '  new        tor2  tor-gateway/keepalived config  update content',
          '  unreachable tor1: connect ECONNREFUSED',
          '',
        ],
      ],
      [
        'a playbook left out',
        [
          'drift run 1: no drift (0 new, 0 persisting, 0 resolved, 1 playbook not checked) on 2 hosts, tor-gateway, 0.8 s',
          '  warning: onboard-windows not checked: no host in group control',
          '',
        ],
      ],
    ],
  );
});

test("the reports' summary line and the JSON's per-host status", (t) => {
  t.deepEqual(
    RUNS.map(([what, r]) => [what, summaryLine(r), hostStatus(r)]),
    [
      [
        'all judged, clean',
        'Drift run 1: 0 new, 0 persisting, 0 resolved, 0 waived; no drift',
        { tor1: 'ok', tor2: 'ok' },
      ],
      [
        'one of two unreachable',
        'Drift run 1: 0 new, 0 persisting, 0 resolved, 0 waived; 1 host unreachable; no drift on 1 host judged',
        { tor1: 'unreachable', tor2: 'ok' },
      ],
      [
        'both unreachable',
        'Drift run 1: 0 new, 0 persisting, 0 resolved, 0 waived; 2 hosts unreachable',
        { tor1: 'unreachable', tor2: 'unreachable' },
      ],
      [
        'drift and one unreachable',
        'Drift run 1: 1 new, 0 persisting, 0 resolved, 0 waived; 1 host unreachable',
        { tor1: 'unreachable', tor2: 'drifted' },
      ],
      [
        'a playbook left out',
        'Drift run 1: 0 new, 0 persisting, 0 resolved, 0 waived; 1 playbook not checked; no drift',
        { tor1: 'ok', tor2: 'ok' },
      ],
    ],
  );
});
