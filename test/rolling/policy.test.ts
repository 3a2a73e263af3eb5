// The rolling policy: the playbook's `rolling` block, the command line over it, the defaults, and every
// refusal with its message and field (a flag: exit 64; a playbook path: 65). Rows compared whole.
import test from 'ava';
import type { RollingPolicy, RollingSpec } from '../../runner/rolling/model.js';
import { type RollingOverrides, rollingPolicy } from '../../runner/rolling/policy.js';
import { RollingOptionError } from '../../runner/rolling/serial.js';

type Outcome = RollingPolicy | { field: string; message: string };

function outcome(spec: unknown, overrides: RollingOverrides): Outcome {
  try {
    return rollingPolicy(spec as RollingSpec, overrides, 'pb.yml');
  } catch (e) {
    if (!(e instanceof RollingOptionError)) throw e;
    return { field: e.field, message: e.message };
  }
}

const DEFAULTS: RollingPolicy = {
  serial: [1],
  maxFail: 0,
  domainVar: 'failure_domain',
  maxPerDomain: null,
  soakSec: 0,
  control: 'control',
  drainTimeoutSec: 300,
  onDrainTimeout: 'uncordon',
  readyTimeoutSec: 600,
  window: null,
};

const FULL: RollingSpec = {
  serial: [1, '25%'],
  maxFail: '10%',
  domainVar: 'rack',
  maxPerDomain: 2,
  soakSec: 60,
  control: 'masters',
  drainTimeoutSec: 120,
  onDrainTimeout: 'keep-cordoned',
  readyTimeoutSec: 900,
};

test('defaults, the playbook, the command line over it', (t) => {
  const table: [name: string, spec: RollingSpec, overrides: RollingOverrides, result: Outcome][] = [
    ['defaults', { control: 'control' }, {}, DEFAULTS],
    ['no control: batches only, no cluster phases', {}, {}, { ...DEFAULTS, control: null }],
    [
      'a single serial step is a list of one',
      { control: 'control', serial: '30%' },
      {},
      { ...DEFAULTS, serial: ['30%'] },
    ],
    [
      'every field from the playbook',
      FULL,
      {},
      {
        serial: [1, '25%'],
        maxFail: '10%',
        domainVar: 'rack',
        maxPerDomain: 2,
        soakSec: 60,
        control: 'masters',
        drainTimeoutSec: 120,
        onDrainTimeout: 'keep-cordoned',
        readyTimeoutSec: 900,
        window: null,
      },
    ],
    [
      'every flag over the playbook',
      FULL,
      {
        serial: '2,50%',
        maxFail: '1',
        maxPerDomain: 1,
        soak: 0,
        window: 'Sat,Sun 01:00-05:00 Asia/Shanghai',
        drainTimeout: 30,
        onDrainTimeout: 'uncordon',
        readyTimeout: 1200,
      },
      {
        serial: [2, '50%'],
        maxFail: 1,
        domainVar: 'rack',
        maxPerDomain: 1,
        soakSec: 0,
        control: 'masters',
        drainTimeoutSec: 30,
        onDrainTimeout: 'uncordon',
        readyTimeoutSec: 1200,
        window: 'Sat,Sun 01:00-05:00 Asia/Shanghai',
      },
    ],
    [
      'flags over the defaults',
      { control: 'control' },
      { serial: '3', maxFail: '20%', soak: 90, window: '* 22:00-06:00' },
      { ...DEFAULTS, serial: [3], maxFail: '20%', soakSec: 90, window: '* 22:00-06:00' },
    ],
    [
      'one flag leaves the rest of the playbook alone',
      FULL,
      { maxPerDomain: 3 },
      { ...DEFAULTS, ...FULL, serial: [1, '25%'], maxPerDomain: 3, window: null },
    ],
  ];
  t.deepEqual(
    table.map(([name, spec, overrides]) => [name, spec, overrides, outcome(spec, overrides)]),
    table,
  );
});

const KNOWN =
  'known: serial, maxFail, domainVar, maxPerDomain, soakSec, control, drainTimeoutSec, onDrainTimeout, readyTimeoutSec';
const SERIAL = "expected a host count (1, 2, ...) or a percentage ('25%')";
const BUDGET = "expected a number of failures (0, 1, ...) or a percentage of the targeted hosts ('20%')";
const CONTROL = 'the group whose first host runs kubectl (e.g. control)';

/** A refusal of the playbook's rolling block: the field is the path, the message starts with the file. */
const inPlaybook = (field: string, text: string) => ({
  field: `rolling.${field}`,
  message: `pb.yml: rolling.${field}: ${text}`,
});
/** A refusal of a flag: field and message name it. */
const onFlag = (flag: string, text: string) => ({ field: flag, message: `${flag}: ${text}` });

// Long because it is a table: one row per refusal.
test('every refusal: field and message', (t) => {
  const c = { control: 'control' };
  const table: [spec: unknown, overrides: RollingOverrides, error: Outcome][] = [
    // the playbook: field is the path, message starts with the file
    [null, {}, { field: 'rolling', message: 'pb.yml: rolling: expected a mapping of options, got null' }],
    [[1], {}, { field: 'rolling', message: 'pb.yml: rolling: expected a mapping of options, got [1]' }],
    ['serial: 1', {}, { field: 'rolling', message: 'pb.yml: rolling: expected a mapping of options, got "serial: 1"' }],
    [{ ...c, seral: 3 }, {}, inPlaybook('seral', `unknown option (${KNOWN})`)],
    [{ control: '' }, {}, inPlaybook('control', `expected ${CONTROL}, got ""`)],
    [{ control: ['a'] }, {}, inPlaybook('control', `expected ${CONTROL}, got ["a"]`)],
    [{ ...c, serial: 'abc' }, {}, inPlaybook('serial', `${SERIAL}, got "abc"`)],
    [{ ...c, serial: [] }, {}, inPlaybook('serial', `${SERIAL}, or a list of them, got an empty list`)],
    [{ ...c, serial: [1, 0] }, {}, inPlaybook('serial', `${SERIAL}, got 0`)],
    [{ ...c, maxFail: '150%' }, {}, inPlaybook('maxFail', 'a percentage must be from 0% to 100%, got "150%"')],
    [{ ...c, maxFail: true }, {}, inPlaybook('maxFail', `${BUDGET}, got true`)],
    [
      { ...c, domainVar: 'rack-id' },
      {},
      inPlaybook('domainVar', 'expected a host variable name (e.g. failure_domain), got "rack-id"'),
    ],
    [{ ...c, domainVar: 3 }, {}, inPlaybook('domainVar', 'expected a host variable name (e.g. failure_domain), got 3')],
    [{ ...c, maxPerDomain: 0 }, {}, inPlaybook('maxPerDomain', 'expected a whole number of hosts (1 or more), got 0')],
    [
      { ...c, maxPerDomain: '2' },
      {},
      inPlaybook('maxPerDomain', 'expected a whole number of hosts (1 or more), got "2"'),
    ],
    [{ ...c, soakSec: -1 }, {}, inPlaybook('soakSec', 'expected a whole number of seconds (0 or more), got -1')],
    [{ ...c, soakSec: '60s' }, {}, inPlaybook('soakSec', 'expected a whole number of seconds (0 or more), got "60s"')],
    [
      { ...c, drainTimeoutSec: 0 },
      {},
      inPlaybook('drainTimeoutSec', 'expected a whole number of seconds (1 or more), got 0'),
    ],
    [
      { ...c, onDrainTimeout: 'drain' },
      {},
      inPlaybook('onDrainTimeout', 'expected uncordon or keep-cordoned, got "drain"'),
    ],
    [
      { ...c, readyTimeoutSec: null },
      {},
      inPlaybook('readyTimeoutSec', 'expected a whole number of seconds (1 or more), got null'),
    ],
    [
      { ...c, readyTimeoutSec: 1.5 },
      {},
      inPlaybook('readyTimeoutSec', 'expected a whole number of seconds (1 or more), got 1.5'),
    ],
    // the playbook is checked even where a flag overrides the field
    [{ ...c, serial: 'abc' }, { serial: '2' }, inPlaybook('serial', `${SERIAL}, got "abc"`)],
    // the command line: field and message name the flag
    [c, { serial: '0' }, onFlag('--serial', `${SERIAL}, got "0"`)],
    [c, { serial: '1,0%' }, onFlag('--serial', 'a percentage must be above 0% and at most 100%, got "0%"')],
    [c, { maxFail: 'x' }, onFlag('--max-fail', `${BUDGET}, got "x"`)],
    [c, { maxPerDomain: 0 }, onFlag('--max-per-domain', 'expected a whole number of hosts (1 or more), got 0')],
    [
      c,
      { maxPerDomain: Number.NaN },
      onFlag('--max-per-domain', 'expected a whole number of hosts (1 or more), got NaN'),
    ],
    [c, { soak: -5 }, onFlag('--soak', 'expected a whole number of seconds (0 or more), got -5')],
    [
      c,
      { window: 'Sat,Sun 25:00-05:00' },
      { field: '--window', message: '--window "Sat,Sun 25:00-05:00": 25:00 is not a time (HH:MM, 00:00-23:59)' },
    ],
    [c, { drainTimeout: 0 }, onFlag('--drain-timeout', 'expected a whole number of seconds (1 or more), got 0')],
    [c, { onDrainTimeout: 'keep' }, onFlag('--on-drain-timeout', 'expected uncordon or keep-cordoned, got "keep"')],
    [c, { readyTimeout: 2.5 }, onFlag('--ready-timeout', 'expected a whole number of seconds (1 or more), got 2.5')],
  ];
  t.deepEqual(
    table.map(([spec, overrides]) => [spec, overrides, outcome(spec, overrides)]),
    table,
  );
});
