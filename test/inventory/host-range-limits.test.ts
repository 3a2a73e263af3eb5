// Host ranges are counted before they are expanded: one pattern names at most MAX_RANGE_HOSTS hosts,
// all of an inventory's ranges together at most MAX_INVENTORY_RANGE_HOSTS, and a refusal names the
// group and the pattern. (Expansion itself is compared with ansible's in glob.test.ts.)
import test from 'ava';
import { InventoryGraph, MAX_INVENTORY_RANGE_HOSTS } from '../../runner/inventory/graph.js';
import {
  expandHostRange,
  HostRangeTooLarge,
  hostRangeSize,
  MAX_RANGE_HOSTS,
} from '../../runner/inventory/host-range.js';
import { hostNames } from '../../runner/inventory/parse.js';
import type { Origin, Reporter } from '../../runner/inventory/source.js';

test('the limits', (t) => {
  t.deepEqual([MAX_RANGE_HOSTS, MAX_INVENTORY_RANGE_HOSTS], [100_000, 1_000_000]);
});

const sizes: [string, number][] = [
  ['web1', 1],
  ['web[1:3]', 3],
  ['web[01:10]', 10],
  ['web[0:10:5]', 3],
  ['web[a:c]', 3],
  ['web[a:Z]', 52],
  ['web[5:1]', 0],
  ['r[1:4]-n[01:25]', 100],
  ['r[1:4]-n[01:25]-[a:b]', 200],
  ['web[0:9999999]', 10_000_000],
  ['w[0:999][0:999]', 1_000_000],
  ['w[0:99999999999999999999]', 1e20 + 1],
];

test('hostRangeSize: the product of each range’s count, without expanding', (t) => {
  t.deepEqual(
    sizes.map(([pattern]) => [pattern, hostRangeSize(pattern)]),
    sizes,
  );
});

test('hostRangeSize agrees with the expansion where it is small', (t) => {
  const small = sizes.filter(([, n]) => n <= MAX_RANGE_HOSTS);
  t.deepEqual(
    small.map(([p]) => [p, expandHostRange(p).length]),
    small.map(([p]) => [p, hostRangeSize(p)]),
  );
});

test('expansion order: the first range outermost, as ansible expands', (t) => {
  t.deepEqual(expandHostRange('r[1:2]-[a:b]'), ['r1-a', 'r1-b', 'r2-a', 'r2-b']);
});

test('a range over the limit is refused by its count, with the count', (t) => {
  const refused = ['web[0:9999999]', 'w[0:999][0:999]', 'web[0:100000]'].map((p) => {
    const e = t.throws(() => expandHostRange(p), { instanceOf: HostRangeTooLarge });
    return [e.pattern, e.size, e.limit, e.message];
  });
  t.deepEqual(refused, [
    [
      'web[0:9999999]',
      10_000_000,
      100_000,
      "host range 'web[0:9999999]' expands to 10,000,000 hosts, more than 100,000",
    ],
    [
      'w[0:999][0:999]',
      1_000_000,
      100_000,
      "host range 'w[0:999][0:999]' expands to 1,000,000 hosts, more than 100,000",
    ],
    ['web[0:100000]', 100_001, 100_000, "host range 'web[0:100000]' expands to 100,001 hosts, more than 100,000"],
  ]);
  t.is(expandHostRange('web[1:100000]').length, 100_000);
});

/** A reporter that keeps the problems as text. */
function recorder(): Reporter & { problems: string[] } {
  const problems: string[] = [];
  return { problems, problem: (o, d) => problems.push(`${o.path}: ${d}`), warn: () => {} };
}

const origin: Origin = { file: 'inv.yaml', path: 'all.children.web.hosts["web[0:9999999]"]', line: 5 };

test('hostNames: a refused range names the group and the pattern', (t) => {
  const report = recorder();
  t.is(hostNames(report, new InventoryGraph(), origin, 'web[0:9999999]', 'web'), null);
  t.deepEqual(report.problems, [
    `${origin.path}: host range 'web[0:9999999]' of group 'web' expands to 10,000,000 hosts, more than the ` +
      '100,000 play expands from one pattern: write a smaller range',
  ]);
});

test("hostNames: ranges draw on the inventory's budget; past it, the range is refused", (t) => {
  const report = recorder();
  const graph = new InventoryGraph();
  graph.rangeHostsLeft = 5;
  const names = (key: string) => hostNames(report, graph, origin, key, 'web')?.names ?? null;
  t.deepEqual(
    [names('a[1:3]'), names('plain'), graph.rangeHostsLeft, names('b[1:3]'), names('c[1:2]'), graph.rangeHostsLeft],
    [['a1', 'a2', 'a3'], ['plain'], 2, null, ['c1', 'c2'], 0],
  );
  t.deepEqual(report.problems, [
    `${origin.path}: host range 'b[1:3]' of group 'web' (3 hosts) would take the hosts named by ranges in this ` +
      'inventory past 1,000,000: write smaller ranges',
  ]);
});
