// `hnsdiag list loadbalancers`: the field notes hold no output of it, only the two cmd.exe loops operators
// use to cut the IDs out of it (fixtures/hnsdiag-delete-loops.txt, docs/field-notes.md#a-faq). The outputs below are
// constructed in the shape each loop parses; the oracle is the note's loop itself, run by a small
// emulation of `for /f "tokens=N delims=X"` (optionally after findstr): our parser must find the
// IDs the loop would pass to `hnsdiag delete loadbalancers`, minus the non-IDs the loop also
// passes (the header's "ID").
import test from 'ava';
import { parseHnsdiagLoadBalancers } from '../../../tasks/windows/hnsdiag-output.js';
import { crlf, fixture } from './fixtures.js';

interface Loop {
  tokens: number;
  delims: string;
  findstr: string | null;
}

function loopsOfSeed(): { v1809: Loop; v1909: Loop } {
  const text = fixture('hnsdiag-delete-loops.txt');
  const loops = [
    ...text.matchAll(
      /for \/f "tokens=(\d+) delims=(.)" %i in \('hnsdiag list loadbalancers(?: \^\| findstr "([^"]+)")?'\)/g,
    ),
  ].map((m) => ({ tokens: Number(m[1]), delims: m[2]!, findstr: m[3] ?? null }));
  if (loops.length !== 2) throw new Error(`expected the seed's two loops, found ${loops.length}`);
  return { v1809: loops[0]!, v1909: loops[1]! };
}

/** What `for /f` hands to its body: token N of each non-empty line (delimiter runs count as one). */
function runLoop(loop: Loop, output: string): string[] {
  // findstr "Load Balancer" matches lines holding either word (a space separates search strings).
  const words = loop.findstr?.split(' ') ?? null;
  return output
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '' && !l.startsWith(';'))
    .filter((l) => words === null || words.some((w) => l.includes(w)))
    .map((l) => l.split(loop.delims).filter((t) => t !== '')[loop.tokens - 1])
    .filter((t): t is string => t !== undefined)
    .map((t) => t.trim()); // cmd.exe drops the spaces around %i when it runs the body
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OUTPUT_1809 = [
  'ID                                   | Virtual IPs | Direct IP IDs',
  '3f2504e0-4f89-11d3-9a0c-0305e82c3301 | 10.176.0.1 | 9c2b1a70-3b33-4cde-9a4f-1f0b3c0d2e11',
  '7d444840-9dc0-11d1-b245-5ffdce74fad2 | 10.176.0.10 | 1185c970-0100-47b4-babd-c91dded5f7f6 cf73a2bc-f00f-4d71-b00a-07fa2d9fb9e3',
].join('\n');

const OUTPUT_1909 = [
  'Load Balancer         : 3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  '    Virtual IPs       : 10.176.0.1',
  '    Direct IP IDs     : 9c2b1a70-3b33-4cde-9a4f-1f0b3c0d2e11',
  '',
  'Load Balancer         : 7d444840-9dc0-11d1-b245-5ffdce74fad2',
  '    Virtual IPs       : 10.176.0.10',
  '    Direct IP IDs     : 1185c970-0100-47b4-babd-c91dded5f7f6 cf73a2bc-f00f-4d71-b00a-07fa2d9fb9e3',
].join('\n');

test("1809 table: the IDs the seed's 1809 loop deletes, and the columns by header", (t) => {
  const { v1809 } = loopsOfSeed();
  t.deepEqual(
    { tokens: v1809.tokens, delims: v1809.delims, findstr: v1809.findstr },
    { tokens: 1, delims: '|', findstr: null },
  );
  for (const text of [OUTPUT_1809, crlf(OUTPUT_1809)]) {
    const parsed = parseHnsdiagLoadBalancers(text);
    t.deepEqual(
      parsed.map((lb) => lb.id),
      runLoop(v1809, text).filter((id) => GUID.test(id)),
    );
    t.deepEqual(runLoop(v1809, text)[0], 'ID'); // the header the loop also feeds to delete
    t.deepEqual(parsed[1]!.fields, {
      'Virtual IPs': '10.176.0.10',
      'Direct IP IDs': '1185c970-0100-47b4-babd-c91dded5f7f6 cf73a2bc-f00f-4d71-b00a-07fa2d9fb9e3',
    });
  }
});

test("1909 blocks: the IDs the seed's 1909 loop deletes, and each block's fields", (t) => {
  const { v1909 } = loopsOfSeed();
  t.deepEqual(
    { tokens: v1909.tokens, delims: v1909.delims, findstr: v1909.findstr },
    { tokens: 2, delims: ':', findstr: 'Load Balancer' },
  );
  for (const text of [OUTPUT_1909, crlf(OUTPUT_1909)]) {
    const parsed = parseHnsdiagLoadBalancers(text);
    t.deepEqual(
      parsed.map((lb) => lb.id),
      runLoop(v1909, text),
    );
    t.deepEqual(parsed[0]!.fields, {
      'Virtual IPs': '10.176.0.1',
      'Direct IP IDs': '9c2b1a70-3b33-4cde-9a4f-1f0b3c0d2e11',
    });
  }
});

test('no load balancers, and a block without an ID', (t) => {
  t.deepEqual(parseHnsdiagLoadBalancers(''), []);
  t.deepEqual(parseHnsdiagLoadBalancers('ID | Virtual IPs | Direct IP IDs\n'), []);
  t.throws(() => parseHnsdiagLoadBalancers('Load Balancer : (none)\n'), { message: /without an ID/ });
});
