// Which command lines' output the suite validates as reports (test/helpers/report-schema.ts, called by
// play()): the reports of playbook runs, rolling runs and drift runs, and nothing else a --json prints.
import test from 'ava';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { driftReport } from '../../runner/drift/report/json.js';
import { checkReportsWrittenBy } from '../helpers/report-schema.js';
import { emptyRun } from '../drift/fixtures.js';

const valid = `${JSON.stringify(driftReport(emptyRun()), null, 2)}\n`;
const invalid = `${JSON.stringify({ ...driftReport(emptyRun()), summary: undefined }, null, 2)}\n`;
const listing = '[\n  {\n    "id": 3\n  }\n]\n';
const rollingPlan = JSON.stringify({ plan: { batches: [] }, ok: [], allowedFailures: 0, policy: {} });

test('reports on stdout are validated, other JSON is not', (t) => {
  const table: [args: string[], stdout: string, refused: boolean][] = [
    [['bench', '--json'], invalid, true],
    [['bench', '--json'], valid, false],
    [['bench'], invalid, false],
    [['bench', '--json'], '', false],
    [['bench', '--json'], 'not json', true],
    [['hotfix-windows', '--check', '--json'], rollingPlan, false],
    [['hotfix-windows', '--json'], rollingPlan, true],
    [['resume', '--json'], invalid, true],
    [['drift', '--json'], invalid, true],
    [['drift', 'tor-gateway', '--json'], `${valid}${valid}`, false],
    [['drift', 'tor-gateway', '--json'], `${valid}${invalid}`, true],
    [['drift', 'history', '--json'], listing, false],
    [['drift', 'show', 'latest', '--json'], listing, false],
    [['rollouts', 'list', '--json'], listing, false],
    [['rollouts', 'show', '4', '--json'], invalid, true],
    [['inventory', '--list', '--json'], listing, false],
    [['state', 'check', '--json'], listing, false],
  ];
  for (const [args, stdout, refused] of table) {
    const check = () => checkReportsWrittenBy(args, tmpdir(), stdout);
    if (refused) t.throws(check, undefined, args.join(' '));
    else t.notThrows(check, args.join(' '));
  }
});

test('the file of --report is validated when the command wrote it', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-report-check-'));
  writeFileSync(join(dir, 'bad.json'), invalid);
  writeFileSync(join(dir, 'good.json'), valid);
  const e = t.throws(() => checkReportsWrittenBy(['bench', '--report', 'bad.json'], dir, ''));
  t.regex(
    e?.message ?? '',
    /^the report of play bench --report bad.json \(bad.json\) does not match .*\n {2}\(top level\) must have required property 'summary'/,
  );
  t.throws(() => checkReportsWrittenBy(['bench', `--report=${join(dir, 'bad.json')}`], '/', ''));
  t.notThrows(() => checkReportsWrittenBy(['bench', '--report', 'good.json'], dir, ''));
  t.notThrows(() => checkReportsWrittenBy(['bench', '--report', 'missing.json'], dir, ''));
});
