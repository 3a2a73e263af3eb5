// The HTML report (runner/drift/report/html.ts), by its structure: nothing the page could fetch,
// only the tags the renderer writes (a hostile value is text, never markup), one section per item
// in report order, the counts and exit code in the header, balanced tags, dark and print styles.
import test from 'ava';
import { orderedItems } from '../../runner/drift/report/common.js';
import { renderHtml } from '../../runner/drift/report/html.js';
import { emptyRun, fixtureRun, HOSTILE_TASK } from './fixtures.js';

const html = renderHtml(fixtureRun());
const TAGS = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)([^>]*)>/g;
const ALLOWED = new Set(
  'html head meta title style body header main section h1 h2 h3 p ul li dl dt dd table thead tbody tr th td a code pre span'.split(
    ' ',
  ),
);

/** The markup alone: tags and their attributes, the style sheet, without the text between tags. */
const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
const markup = (page: string) => [...page.matchAll(TAGS)].map((m) => m[0]).join('\n');
const style = (page: string) => /<style>([\s\S]*?)<\/style>/.exec(page)![1]!;

test('the page fetches nothing: no URL in any attribute or in the style sheet, a CSP that forbids it', (t) => {
  t.true(html.startsWith('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'));
  t.true(
    html.includes(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    ),
  );
  const tags = markup(html);
  t.notRegex(tags.replace('http-equiv', ''), /https?:|\/\/|<link|<script|<img|<iframe|<object|src=|srcset=|action=/i);
  for (const [, href] of tags.matchAll(/href="([^"]*)"/g)) t.regex(href!, /^#item-[0-9]+$/);
  t.notRegex(style(html), /url\(|@import|https?:/i);
  // A value holding a URL is shown as text, escaped, in a <code> element.
  t.true(html.includes('<code>&quot;&lt;img src=https://example.invalid/x.png&gt;&quot;</code>'));
});

test('only the tags the renderer writes, balanced: every hostile value is text', (t) => {
  const stack: string[] = [];
  for (const [, close, name] of html.matchAll(TAGS)) {
    t.true(ALLOWED.has(name!), `unexpected tag <${name}>`);
    if (name === 'meta') continue;
    if (close) t.is(stack.pop(), name);
    else stack.push(name!);
  }
  t.deepEqual(stack, []);
  t.false(html.includes('<script>alert'));
  t.false(html.includes('<b>'));
  for (const s of [
    'motd &lt;b&gt;&amp;&quot;quoted&quot;&#39;s | pipe (for node009)',
    '&quot;a|b `tick` &lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt; &amp; &#39;q&#39;\\nsecond line&quot;',
    '<span class="del">-&lt;script&gt;alert(1)&lt;/script&gt; ```</span>',
    '<td>Get-HotFix exited 1: &lt;Access denied&gt; &amp; &quot;retry&quot;\nat line 2</td>',
    '&quot;x\\u001by ]]&gt; https://example.invalid/p.png&quot;',
  ]) {
    t.true(html.includes(s), s);
  }
  t.false(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(html));
});

test('one section per item, in report order, each with its status, first-seen time and waiver', (t) => {
  const run = fixtureRun();
  const sections = [
    ...html.matchAll(/<section class="item ([a-z ]+)" id="item-([0-9]+)">\n<h3>([^\n]*)<\/h3>\n<dl>([^\n]*)<\/dl>/g),
  ];
  t.is(sections.length, run.items.length);
  orderedItems(run).forEach((i, n) => {
    const [, cls, id, h3, dl] = sections[n]!;
    t.is(id, String(n + 1));
    const task = i.target ? `${i.task} (for ${i.target})` : i.task;
    t.true(h3!.endsWith(`${i.host} · ${i.playbook} · ${esc(task)}`), h3);
    t.true(dl!.includes(`<dt>first seen</dt><dd>${i.firstSeen}</dd>`));
    if (i.waiver) t.true(dl!.includes(esc(i.waiver.reason)));
    t.is(cls!.split(' ')[0], i.waiver && !i.waiver.expired ? 'waived' : i.status);
  });
  t.true(html.includes('<section class="item persisting expired" id="item-7">'));
  t.true(
    html.includes(`<h3><span class="badge">new</span> tor2 · tor-gateway · ${esc(HOSTILE_TASK)} (for node009)</h3>`),
  );
});

test('the header has the run, its counts and its exit code; the host table its rows', (t) => {
  t.true(html.includes('<h1>Drift run 12</h1>'));
  t.true(
    html.includes(
      '<ul class="counts"><li class="new">5 new</li><li class="persisting">2 persisting</li><li class="resolved">1 resolved</li><li class="waived">1 waived</li><li class="unreachable">1 unreachable</li><li class="failed">1 failed</li></ul>',
    ),
  );
  t.true(
    html.includes(
      '<dt>started</dt><dd>2024-05-02T10:00:00.000Z</dd><dt>duration</dt><dd>4.2 s</dd><dt>playbooks</dt><dd>tor-gateway, onboard-windows</dd><dt>inventory</dt><dd>inventory/lab.yaml</dd><dt>hosts</dt><dd>6</dd><dt>not checked</dt><dd>hotfix-windows</dd><dt>exit code</dt><dd>3 (a host failed to be probed)</dd>',
    ),
  );
  const rows = [
    ...html.matchAll(
      /<tr class="(ok|drifted|problem)"><th scope="row">(?:<a href="#item-[0-9]+">)?([^<]*)(?:<\/a>)?<\/th><td>([0-9]+)<\/td><td>([0-9]+)<\/td><td>([0-9]+)<\/td><td>([^<]*)<\/td><\/tr>/g,
    ),
  ];
  t.deepEqual(
    rows.map((m) => m.slice(2).join(' ')),
    [
      'tor1 0 0 1 ok',
      'tor2 3 0 0 drifted',
      'tor3 0 0 0 unreachable',
      'node009 2 0 0 drifted',
      'node010 2 1 0 drifted',
      'node011 0 0 0 failed',
    ],
  );
});

test('text diffs are coloured by line class; masked values stay masked', (t) => {
  for (const s of [
    '<pre class="diff"><span class="file">--- /etc/keepalived/keepalived.conf (actual)</span>',
    '<span class="hunk">@@ -3,3 +3,3 @@</span>',
    '<span class="del">-  priority 150</span>\n<span class="add">+  priority 100</span>\n<span class="ctx">   auth_pass ********</span></pre>',
    '<tr><th scope="row">token</th><td><code>&quot;********&quot;</code></td><td><code>&quot;********&quot;</code></td></tr>',
  ]) {
    t.true(html.includes(s), s);
  }
});

test('readable in light and dark, and printable', (t) => {
  const css = style(html);
  t.true(html.includes('<meta name="color-scheme" content="light dark">'));
  t.regex(css, /@media screen and \(prefers-color-scheme: dark\) \{\n {2}:root \{/);
  t.regex(css, /@media print \{[\s\S]*break-inside: avoid;/);
  for (const c of ['add', 'del', 'hunk']) t.regex(css, new RegExp(`pre\\.diff \\.${c} \\{`));
});

test('a run with no items says so and lists every host as ok', (t) => {
  const page = renderHtml(emptyRun());
  t.true(page.includes('<h2>Items (0)</h2>\n<p>No drift items.</p>'));
  t.true(page.includes('<tr class="ok"><th scope="row">tor1</th><td>0</td><td>0</td><td>0</td><td>ok</td></tr>'));
  t.false(page.includes('class="problems"'));
});
