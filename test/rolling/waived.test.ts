// Which nodes a rollout leaves out because their changes are waived (runner/rolling/waived.ts), as a
// table compared whole: every changed task must be covered by an unexpired waiver of this playbook
// whose hosts match the node.
import test from 'ava';
import type { Waiver } from '../../runner/drift/waivers.js';
import { waivedReason } from '../../runner/rolling/waived.js';

const w = (over: Partial<Waiver>): Waiver => ({
  hosts: 'node013',
  playbook: 'hotfix-windows',
  task: 'hotfix',
  reason: 'vendor certification pending, OPS-77',
  expires: '2026-12-31',
  source: 'waivers.yml:1',
  ...over,
});

/** Patterns as the inventory reads them: a group `rack_a` and plain names. */
const resolve = (pattern: string): ReadonlySet<string> => {
  if (pattern === 'rack_a') return new Set(['node012', 'node013', 'node014']);
  if (pattern === 'nowhere') throw new Error('matches no host');
  return new Set(pattern.split(':'));
};

const NOW = new Date('2026-11-24T01:00:00Z');

test('waived only when every changed task is covered by a live waiver of this playbook and host', (t) => {
  const table: [what: string, host: string, tasks: string[], waivers: Waiver[], expected: string | null][] = [
    ['covered', 'node013', ['hotfix'], [w({})], 'hotfix: vendor certification pending, OPS-77 (until 2026-12-31)'],
    [
      'through a group',
      'node014',
      ['hotfix'],
      [w({ hosts: 'rack_a' })],
      'hotfix: vendor certification pending, OPS-77 (until 2026-12-31)',
    ],
    ['another host', 'node015', ['hotfix'], [w({})], null],
    ['another playbook', 'node013', ['hotfix'], [w({ playbook: 'onboard-windows' })], null],
    ['expired (the day after expires)', 'node013', ['hotfix'], [w({ expires: '2026-11-23' })], null],
    [
      'holds through its last day',
      'node013',
      ['hotfix'],
      [w({ expires: '2026-11-24' })],
      'hotfix: vendor certification pending, OPS-77 (until 2026-11-24)',
    ],
    ['one of two tasks not covered', 'node013', ['hotfix', 'osBuild'], [w({})], null],
    [
      'both tasks covered, each with its reason',
      'node013',
      ['hotfix', 'osBuild'],
      [w({}), w({ task: 'osBuild', reason: 'same hold' })],
      'hotfix: vendor certification pending, OPS-77 (until 2026-12-31); osBuild: same hold (until 2026-12-31)',
    ],
    ['a pattern matching nothing waives nothing', 'node013', ['hotfix'], [w({ hosts: 'nowhere' })], null],
    ['nothing changed: nothing to waive', 'node013', [], [w({})], null],
  ];
  t.deepEqual(
    table.map(([what, host, tasks, waivers]) => [
      what,
      waivedReason(host, 'hotfix-windows', tasks, waivers, resolve, NOW),
    ]),
    table.map(([what, , , , expected]) => [what, expected]),
  );
});
