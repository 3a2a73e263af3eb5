// The rolling block's schema beyond the one-field refusals policy.test.ts pins: the seven-day cap on a
// wait (from the playbook and from a flag), and which problem is reported when there are several.
import test from 'ava';
import type { RollingSpec } from '../../runner/rolling/model.js';
import { type RollingOverrides, rollingPolicy } from '../../runner/rolling/policy.js';
import { RollingOptionError } from '../../runner/rolling/serial.js';

function refusal(spec: unknown, overrides: RollingOverrides): { field: string; message: string } | 'accepted' {
  try {
    rollingPolicy(spec as RollingSpec, overrides, 'pb.yml');
    return 'accepted';
  } catch (e) {
    if (!(e instanceof RollingOptionError)) throw e;
    return { field: e.field, message: e.message };
  }
}

test('a wait is at most seven days; several problems: a misspelt option first, else the first listed', (t) => {
  const c = { control: 'control' };
  const table: [spec: unknown, overrides: RollingOverrides, outcome: ReturnType<typeof refusal>][] = [
    [{ ...c, soakSec: 604_800 }, {}, 'accepted'],
    [
      { ...c, soakSec: 604_801 },
      {},
      {
        field: 'rolling.soakSec',
        message: 'pb.yml: rolling.soakSec: expected at most 604800 seconds (7 days), got 604801',
      },
    ],
    [
      c,
      { readyTimeout: 604_801 },
      { field: '--ready-timeout', message: '--ready-timeout: expected at most 604800 seconds (7 days), got 604801' },
    ],
    [
      { soakSec: -1, serail: 2, control: '' },
      {},
      {
        field: 'rolling.serail',
        message:
          'pb.yml: rolling.serail: unknown option (known: serial, maxFail, domainVar, maxPerDomain, soakSec, control, drainTimeoutSec, onDrainTimeout, readyTimeoutSec)',
      },
    ],
    [
      { maxFail: 'x', soakSec: -1 },
      {},
      {
        field: 'rolling.maxFail',
        message:
          'pb.yml: rolling.maxFail: expected a number of failures (0, 1, ...) or a percentage of the targeted hosts (\'20%\'), got "x"',
      },
    ],
  ];
  t.deepEqual(
    table.map(([spec, overrides]) => [spec, overrides, refusal(spec, overrides)]),
    table,
  );
});
