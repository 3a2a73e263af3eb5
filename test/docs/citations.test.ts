// Citations of the repository's docs: every `docs/FILE.md#anchor` in the code (comments included),
// the test fixtures, the inventory and the READMEs must name a file of docs/ and, when it has an
// anchor, a heading of that file (GitHub's slug of the heading text). The docs' own links between
// pages (`(lab.md#vrrp-timings)`, `(#step-8-hns-network)`) are checked the same way.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const SCANNED_DIRS = ['bench', 'bin', 'inventory', 'lab', 'playbooks', 'runner', 'tasks', 'test'];
const SCANNED_EXT = /\.(ts|mjs|ps1|ya?ml|txt|md)$/;

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text: its headings' slugs (outside code fences), repeats numbered -1, -2, ... */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

interface Citation {
  where: string;
  file: string;
  anchor: string | null;
}

/** `docs/FILE.md` and `docs/FILE.md#anchor` in any text. */
function citationsIn(text: string, where: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(/\bdocs\/([A-Za-z0-9_.-]+?\.md)(?:#([A-Za-z0-9_-]+))?/g)) {
    out.push({ where: `${where}:${text.slice(0, m.index).split('\n').length}`, file: m[1]!, anchor: m[2] ?? null });
  }
  return out;
}

/** Links inside a page of docs/: `(other.md#anchor)`, `(other.md)`, `(#anchor)`. */
function docLinksIn(text: string, page: string): Citation[] {
  const out: Citation[] = [];
  for (const m of text.matchAll(/\]\((?:([A-Za-z0-9_.-]+\.md))?(?:#([A-Za-z0-9_-]+))?\)/g)) {
    if (!m[1] && !m[2]) continue;
    out.push({
      where: `docs/${page}:${text.slice(0, m.index).split('\n').length}`,
      file: m[1] ?? page,
      anchor: m[2] ?? null,
    });
  }
  return out;
}

/** What is wrong with each citation, against the pages given (file name -> Markdown text). */
function problems(citations: readonly Citation[], pages: ReadonlyMap<string, string>): string[] {
  const cache = new Map<string, Set<string>>();
  const out: string[] = [];
  for (const c of citations) {
    const text = pages.get(c.file);
    if (text === undefined) {
      out.push(`${c.where}: docs/${c.file} does not exist`);
      continue;
    }
    if (c.anchor === null) continue;
    if (!cache.has(c.file)) cache.set(c.file, anchors(text));
    if (!cache.get(c.file)!.has(c.anchor)) out.push(`${c.where}: docs/${c.file} has no heading #${c.anchor}`);
  }
  return out;
}

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SCANNED_EXT.test(name)) out.push(p);
  }
}

function docPages(): Map<string, string> {
  return new Map(
    readdirSync(DOCS)
      .filter((f) => f.endsWith('.md'))
      .map((f) => [f, readFileSync(join(DOCS, f), 'utf8')]),
  );
}

test('slugs as GitHub makes them', (t) => {
  t.is(slug('Field note A: Windows node behind ToR gateways'), 'field-note-a-windows-node-behind-tor-gateways');
  t.is(slug('Step 8: HNS network'), 'step-8-hns-network');
  t.is(slug('A: Docker and daemon.json'), 'a-docker-and-daemonjson');
  t.is(slug('Rolling hotfix upgrades (not built yet)'), 'rolling-hotfix-upgrades-not-built-yet');
  t.deepEqual([...anchors('# T\n## Same\n```\n## not a heading\n```\n## Same\n')], ['t', 'same', 'same-1']);
});

test('the check fails on a missing page or heading', (t) => {
  const pages = new Map([['a.md', '# A\n## Real section\n']]);
  const cited = citationsIn('// see docs/a.md#real-section, docs/a.md#no-such-section and docs/b.md\n', 'x.ts');
  t.deepEqual(problems(cited, pages), [
    'x.ts:1: docs/a.md has no heading #no-such-section',
    'x.ts:1: docs/b.md does not exist',
  ]);
});

test('every docs/FILE.md#anchor cited in the repository exists', (t) => {
  t.true(existsSync(join(DOCS, 'README.md')), 'docs/README.md exists');
  const files: string[] = [join(ROOT, 'README.md')];
  for (const d of SCANNED_DIRS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d), files);
  // This file's own examples (docs/FILE.md, docs/a.md) are not citations.
  const citations = files
    .filter((f) => !f.startsWith(join(ROOT, 'test', 'docs')))
    .flatMap((f) => citationsIn(readFileSync(f, 'utf8'), relative(ROOT, f)));
  t.true(citations.length >= 50, `found ${citations.length} citations`);
  t.deepEqual(problems(citations, docPages()), []);
});

test('links between the pages of docs/ resolve', (t) => {
  const pages = docPages();
  const links = [...pages].flatMap(([page, text]) => docLinksIn(text, page));
  t.true(links.length > 10, `found ${links.length} links`);
  t.deepEqual(problems(links, pages), []);
});

/** Documents that live outside the repository (our founders' notes and the raw field notes): citing
 *  them leaves a reader with nothing to open. Matched case-sensitively, as they are written. */
const OUTSIDE = /\b(?:DOMAIN|DESIGN|LAB)\.md\b|\bseeds?\/0{2}\d|\bseed 0{2}\d\b/;

function outsideCitations(text: string, where: string): string[] {
  return text.split('\n').flatMap((line, i) => (OUTSIDE.test(line) ? [`${where}:${i + 1}: ${line.trim()}`] : []));
}

test('no code, test, fixture or README cites a document that is not in the repository', (t) => {
  // The examples are built from parts, so this file itself cites nothing outside the repository.
  const lab = ['LAB', 'md'].join('.');
  const seed = ['seed', '001'].join(' ');
  t.deepEqual(
    outsideCitations(`// as ${lab} measured\n// see docs/lab.md\nconst DOMAIN = 1; // ${seed}\n`, 'x.ts'),
    [`x.ts:1: // as ${lab} measured`, `x.ts:3: const DOMAIN = 1; // ${seed}`],
    'the check can fail',
  );
  const files: string[] = [join(ROOT, 'README.md')];
  for (const d of SCANNED_DIRS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d), files);
  const here = fileURLToPath(import.meta.url);
  t.deepEqual(
    files.filter((f) => f !== here).flatMap((f) => outsideCitations(readFileSync(f, 'utf8'), relative(ROOT, f))),
    [],
  );
});
