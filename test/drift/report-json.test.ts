// The JSON report (runner/drift/report/json.ts): exactly the DriftRun, in a key order that does not
// depend on how the object was built, and never a secret's clear text.
import test from 'ava';
import { Secret } from '../../runner/core/secret.js';
import { driftReport, renderJson } from '../../runner/drift/report/json.js';
import { expected, fixtureRun } from './fixtures.js';

test('the fixture run renders as the expected JSON, whole', (t) => {
  t.is(renderJson(fixtureRun()), expected('report.json'));
});

test('parsing the output gives back exactly the run as a report', (t) => {
  const run = fixtureRun();
  t.deepEqual(JSON.parse(renderJson(run)), driftReport(run));
});

/** The same values with every object's keys in reverse order, recursively. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reversed(x)]),
  );
}

test('the key order does not depend on the order the run was built in', (t) => {
  const run = fixtureRun();
  run.items[0]!.before = { b: { y: 1, x: [{ q: 1, p: 2 }] }, a: 1 };
  const out = renderJson(run);
  t.is(renderJson(reversed(run) as typeof run), out);
  t.true(
    out.includes(
      '"before": {\n        "a": 1,\n        "b": {\n          "x": [\n            {\n              "p": 2,',
    ),
  );
});

test('keys the model does not name are kept, sorted, after the known ones', (t) => {
  const run = { ...fixtureRun(), items: [], problems: [], zeta: 1, alpha: 2 };
  const keys = Object.keys(JSON.parse(renderJson(run)) as object);
  t.deepEqual(keys, [
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
    'warnings',
    'problems',
    'items',
    'alpha',
    'zeta',
  ]);
});

test('a Secret that reached a value is written as its mask, never revealed', (t) => {
  const run = fixtureRun();
  run.items[0]!.before = { token: new Secret('hunter2-clear-text', 'env:TOKEN') };
  const out = renderJson(run);
  t.false(out.includes('hunter2'));
  t.false(out.includes('env:TOKEN'));
  t.true(out.includes('"token": "********"'));
});
