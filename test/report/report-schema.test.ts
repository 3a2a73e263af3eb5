// Every report kind, built by its real builder from small inputs, is valid against the published
// schema (docs/schema/report.schema.json, checked by ajv) and carries the version, its kind and the
// six host counters; the summaries are compared whole. And what the validator refuses.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffFields } from '../../runner/core/change.js';
import { UnreachableError } from '../../runner/core/errors.js';
import { sh } from '../../runner/core/quote.js';
import { mustRun } from '../../runner/core/remote.js';
import type { ExecResult, Step } from '../../runner/core/step.js';
import { driftReport } from '../../runner/drift/report/json.js';
import type { Host, Inventory } from '../../runner/inventory/model.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { definePlaybook } from '../../runner/playbook/define.js';
import type { Mode } from '../../runner/report/model.js';
import { REPORT_SCHEMA_VERSION } from '../../runner/report/schema-version.js';
import { rolloutReport } from '../../runner/rolling/report.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';
import type { JournalEvent, RolloutRecord } from '../../runner/state/store.js';
import { emptyRun, fixtureRun } from '../drift/fixtures.js';
import { assertValidReport } from '../helpers/report-schema.js';

/** A file's content; apply writes it, or fails on a host in `failOn`. */
function file(path: string, content: string, failOn: string): Step<{ content: string }, { content: string }, object> {
  return {
    kind: 'test.file',
    title: `file ${path}`,
    desired: Object.freeze({ content }),
    probe: () => ({
      script: sh`cat ${path} 2>/dev/null || printf '\\n<absent>'`,
      parse: (r: ExecResult) => (r.stdout.endsWith('<absent>') ? null : { content: r.stdout }),
    }),
    diff: (d, a) => diffFields(d, a, ['content']),
    apply: async (remote) => {
      if (path.includes(failOn)) await mustRun(remote, sh`echo 'disk on fire' >&2; exit 7`, 'write');
      await mustRun(remote, sh`printf '%s' ${content} > ${path}`, 'write');
      return {};
    },
  };
}

/** Four "hosts" reached through a local /bin/sh: `done` already has the file, `down` is unreachable, `bad` fails. */
async function runReport(mode: Mode) {
  const names = ['fresh', 'done', 'down', 'bad'];
  const dir = mkdtempSync(join(tmpdir(), 'play-report-'));
  writeFileSync(join(dir, 'done'), 'v1');
  const hosts: Host[] = names.map((name) => ({
    name,
    vars: {},
    groups: ['all'],
    connection: { address: '127.0.0.1', port: 22, user: 'root', os: 'linux' },
  }));
  const inv: Inventory = {
    file: 'test.yaml',
    hosts,
    groups: new Map([['all', { name: 'all', hosts: names, children: [], vars: {} }]]),
    host: (n) => hosts.find((h) => h.name === n),
  };
  const pb = definePlaybook({
    name: 'report',
    description: '',
    tasks: { file: { on: 'all', step: ({ host }) => file(join(dir, host.name), 'v1', 'bad') } },
  });
  const graph = compileGraph(pb, inv);
  return runGraph(graph, inv, prebuildSteps(graph, inv), {
    mode,
    forks: 4,
    timeoutMs: 10_000,
    connect: async (h) => {
      if (h.name === 'down') throw new UnreachableError(h.name, 'down (127.0.0.1:22): connection refused');
      return { exec: (command: string) => shell(command) };
    },
  });
}

function shell(command: string): Promise<ExecResult> {
  return import('node:child_process').then(
    ({ spawn }) =>
      new Promise((resolve) => {
        const child = spawn('/bin/sh', ['-c', command]);
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ stdout, stderr, code }));
      }),
  );
}

const RUN: RolloutRecord = {
  id: 4,
  playbook: 'hotfix-windows',
  inventoryKey: '/inv.yaml',
  args: {},
  status: 'stopped',
  reason: 'failure budget spent',
  startedAt: '2026-11-23T01:00:00.000Z',
  updatedAt: '2026-11-23T01:01:00.000Z',
  pid: 1,
  controller: 'ctl',
};

const ev = (s: number, host: string, phase: string, state: JournalEvent['state'], detail?: string, data?: object) => ({
  runId: 4,
  host,
  phase,
  state,
  at: new Date(Date.UTC(2026, 10, 23, 1, 0, s)).toISOString(),
  detail: detail ?? null,
  data: (data as Record<string, unknown>) ?? null,
});

/** a upgraded, b failed, c needed nothing, w waived, p planned for batch 3 and never reached. */
const EVENTS: JournalEvent[] = [
  ev(0, '', 'plan', 'note', '3 batches', { batches: [['a'], ['b'], ['p']] }),
  ev(0, 'a', 'planned', 'end', 'batch 1', { batch: 1 }),
  ev(0, 'b', 'planned', 'end', 'batch 2', { batch: 2 }),
  ev(0, 'p', 'planned', 'end', 'batch 3', { batch: 3 }),
  ev(0, 'c', 'planned', 'end', 'already in the desired state: not cordoned', { 'no-work': true }),
  ev(0, 'w', 'planned', 'end', 'waived: vendor pending', { waived: true }),
  ev(1, '', 'batch', 'begin', 'batch 1 of 3: a', { batch: 1, hosts: ['a'] }),
  ev(2, 'a', 'cordon', 'end'),
  ev(13, 'a', 'uncordon', 'end'),
  ev(13, 'a', 'done', 'end'),
  ev(13, '', 'batch', 'end', '1 done (1 node)', { batch: 1 }),
  ev(14, '', 'batch', 'begin', 'batch 2 of 3: b', { batch: 2, hosts: ['b'] }),
  ev(15, 'b', 'drain', 'fail', 'drain timed out after 30s; uncordoned'),
  ev(15, '', 'batch', 'end', '1 failed (1 node)', { batch: 2 }),
];

const six = (
  ok: number,
  changed: number,
  failed: number,
  skipped: number,
  unreachable: number,
  interrupted: number,
) => ({
  ok,
  changed,
  failed,
  skipped,
  unreachable,
  interrupted,
});

test('every report kind is valid against the schema, with its version, kind and summary', async (t) => {
  const table: [what: string, report: { schemaVersion: number; kind: string; summary: object }, summary: object][] = [
    ['a playbook run (apply)', await runReport('apply'), six(1, 1, 1, 0, 1, 0)],
    ['a playbook run (check)', await runReport('check'), six(1, 2, 0, 0, 1, 0)],
    ['a rolling run the budget stopped', rolloutReport(RUN, EVENTS, 0), { ...six(1, 1, 1, 2, 0, 0), batches: 2 }],
    [
      'a rolling run interrupted',
      rolloutReport({ ...RUN, status: 'interrupted' }, EVENTS, 1),
      { ...six(1, 1, 1, 1, 0, 1), batches: 2 },
    ],
    [
      'a rolling run with no events',
      rolloutReport({ ...RUN, status: 'done' }, [], 0),
      { ...six(0, 0, 0, 0, 0, 0), batches: 0 },
    ],
    ['a drift run with one of everything', driftReport(fixtureRun()), { ...six(1, 3, 1, 0, 1, 0), driftedItems: 7 }],
    ['a drift run without drift', driftReport(emptyRun()), { ...six(2, 0, 0, 0, 0, 0), driftedItems: 0 }],
  ];
  for (const [what, report, summary] of table) {
    // Through JSON, as a reader gets it (a Secret is its mask, undefined fields are gone).
    const json = JSON.parse(JSON.stringify(report));
    t.notThrows(() => assertValidReport(json, what), what);
    t.deepEqual(
      { schemaVersion: json.schemaVersion, kind: json.kind, summary: json.summary },
      { schemaVersion: REPORT_SCHEMA_VERSION, kind: report.kind, summary },
      what,
    );
  }
  t.deepEqual(
    table.map(([, r]) => r.kind),
    ['run', 'run', 'rolling', 'rolling', 'rolling', 'drift', 'drift'],
  );
});

test('a report that is not valid is refused, naming the path of what is wrong', (t) => {
  const good = JSON.parse(JSON.stringify(driftReport(emptyRun())));
  const { summary: _, ...noSummary } = good;
  const table: [what: string, report: unknown, message: RegExp][] = [
    ['no summary', noSummary, /\(top level\) must have required property 'summary'/],
    ['a counter not a count', { ...good, summary: { ...good.summary, ok: -1 } }, /\/summary\/ok must be >= 0/],
    ['another version', { ...good, schemaVersion: 2 }, /\/schemaVersion must be equal to constant/],
    ['a field the schema does not name', { ...good, extra: true }, /must NOT have additional properties 'extra'/],
    [
      'a host status out of the set',
      { ...good, hostStatus: { tor1: 'fine' } },
      /\/hostStatus\/tor1 must be equal to one of/,
    ],
    ['no kind', { ...good, kind: undefined }, /kind undefined/],
  ];
  for (const [what, report, message] of table) {
    const e = t.throws(() => assertValidReport(JSON.parse(JSON.stringify(report)), what), undefined, what);
    t.regex(e?.message ?? '', message, what);
    t.regex(e?.message ?? '', new RegExp(`^${what} does not match docs/schema/report.schema.json`), what);
  }
});
