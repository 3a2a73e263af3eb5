// The JUnit report (runner/drift/report/junit.ts): compared whole, well-formed XML (a strict checker,
// test/drift/xml-check.ts), counts that match its testcases, and hostile strings that survive intact.
import test from 'ava';
import { countsAsDrift } from '../../runner/drift/model.js';
import { renderJunit } from '../../runner/drift/report/junit.js';
import { emptyRun, expected, fixtureChecked, fixtureRun, HOSTILE_TASK } from './fixtures.js';
import { findAll, parseXml, textOf, type XmlElement } from './xml-check.js';

test('the fixture run renders as the expected JUnit XML, whole', (t) => {
  t.is(renderJunit(fixtureRun(), { checked: fixtureChecked() }), expected('report.xml'));
});

test('the XML is well-formed and every suite counts its own testcases', (t) => {
  const root = parseXml(renderJunit(fixtureRun(), { checked: fixtureChecked() }));
  t.is(root.name, 'testsuites');
  const count = (e: XmlElement, name: string) =>
    findAll(e, 'testcase').filter((c) => c.children.some((k) => typeof k !== 'string' && k.name === name)).length;
  const tally = (e: XmlElement) => ({
    tests: findAll(e, 'testcase').length,
    failures: count(e, 'failure'),
    errors: count(e, 'error'),
    skipped: count(e, 'skipped'),
  });
  const attrs = (e: XmlElement) => ({
    tests: Number(e.attrs.tests),
    failures: Number(e.attrs.failures),
    errors: Number(e.attrs.errors),
    skipped: Number(e.attrs.skipped),
  });
  for (const s of findAll(root, 'testsuite')) t.deepEqual(attrs(s), tally(s), s.attrs.name);
  t.deepEqual(attrs(root), { tests: 17, failures: 7, errors: 3, skipped: 2 });
  t.deepEqual(attrs(root), tally(root));
  // One failure per item that counts as drift, and only those.
  t.is(attrs(root).failures, fixtureRun().items.filter(countsAsDrift).length);
});

test('hostile names and messages come back intact from the escaped XML', (t) => {
  const root = parseXml(renderJunit(fixtureRun(), { checked: fixtureChecked() }));
  const hostile = findAll(root, 'testcase').find((c) => c.attrs.name === `${HOSTILE_TASK} (for node009)`);
  t.truthy(hostile);
  const failure = findAll(hostile!, 'failure')[0]!;
  t.true(textOf(failure).includes(`task: ${HOSTILE_TASK}\n`));
  t.true(textOf(failure).includes('-<script>alert(1)</script> ```\n+& "ok" \'x\' | y'));
  const error = findAll(root, 'error').find((e) => e.attrs.type === 'failed')!;
  t.is(
    error.attrs.message,
    'failed (task hotfix KB5034439): Get-HotFix exited 1: <Access denied> & "retry"\nat line 2',
  );
});

test('control characters and lone surrogates never reach the XML', (t) => {
  const run = fixtureRun();
  run.items[0]!.task = 'nul\u0000 esc\u001b del\u007f c1\u0085 lone\ud800 nonchar\uffff ok\u{1f600}';
  run.problems[0]!.message = 'bell\u0007\r\nnext';
  const xml = renderJunit(run);
  const root = parseXml(xml);
  const names = findAll(root, 'testcase').map((c) => c.attrs.name);
  t.true(names.includes('nul\\u0000 esc\\u001b del\\u007f c1\\u0085 lone\ufffd nonchar\ufffd ok\u{1f600}'));
  t.true(xml.includes('message="unreachable: bell\\u0007&#13;&#10;next"'));
});

test('without a checked list, items and probes still get their testcases', (t) => {
  const root = parseXml(renderJunit(fixtureRun()));
  const cases = findAll(root, 'testcase').map((c) => `${c.attrs.classname} ${c.attrs.name}`);
  t.deepEqual(cases, [
    'tor-gateway.tor1 ip forwarding',
    'tor-gateway.tor2 keepalived config',
    'tor-gateway.tor2 keepalived running',
    `tor-gateway.tor2 ${HOSTILE_TASK} (for node009)`,
    'tor-gateway.tor3 (probe)',
    'onboard-windows.tor3 (probe)',
    'onboard-windows.node009 w32time running',
    'onboard-windows.node009 dns suffix',
    'onboard-windows.node010 kubelet service',
    'onboard-windows.node010 hotfix KB5034439',
    'onboard-windows.node010 kubeconfig',
    'onboard-windows.node011 (probe)',
    'hotfix-windows (playbook)',
  ]);
});

test('a run with nothing to report is an empty suite per playbook', (t) => {
  t.is(
    renderJunit(emptyRun()),
    `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="play drift run 1" tests="0" failures="0" errors="0" skipped="0" time="0.812">
  <testsuite name="tor-gateway" tests="0" failures="0" errors="0" skipped="0">
    <properties>
      <property name="play.drift.run" value="1"/>
      <property name="play.drift.startedAt" value="2024-05-01T00:00:00.000Z"/>
      <property name="play.drift.inventory" value="lab"/>
      <property name="play.drift.exitCode" value="0"/>
    </properties>
  </testsuite>
</testsuites>
`,
  );
});

test('the checker itself rejects what is not well-formed', (t) => {
  const bad = [
    '<a>',
    '<a></b>',
    '<a x="1" x="2"/>',
    '<a>&</a>',
    '<a>&nbsp;</a>',
    '<a>]]></a>',
    '<a x="<"/>',
    '<a>\u0001</a>',
    '<a>&#0;</a>',
    '<a/><b/>',
    '<a><!-- -- --></a>',
  ];
  for (const b of bad) t.throws(() => parseXml(`<?xml version="1.0" encoding="UTF-8"?>${b}`), undefined, b);
  t.notThrows(() => parseXml('<?xml version="1.0" encoding="UTF-8"?>\n<a x=\'&apos;\'>&#x1F600;<!-- c --><b/></a>\n'));
});
