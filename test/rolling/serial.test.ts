// `serial` and `maxFail`: the batch sizes (Ansible's serial arithmetic), the failure budget, and the
// values a playbook or the command line may give. Tables compared whole.
import test from 'ava';
import type { FailBudgetSpec, SerialStep } from '../../runner/rolling/model.js';
import {
  allowedFailures,
  batchSizes,
  parseFailBudget,
  parseSerial,
  parseSerialStep,
  RollingOptionError,
} from '../../runner/rolling/serial.js';

/** The value, or the error as { field, message } (any other error fails the test). */
function outcome<T>(f: () => T): T | { field: string; message: string } {
  try {
    return f();
  } catch (e) {
    if (!(e instanceof RollingOptionError)) throw e;
    return { field: e.field, message: e.message };
  }
}

test('batch sizes: Ansible serial, of the hosts that need work', (t) => {
  const table: [steps: SerialStep[], total: number, sizes: number[]][] = [
    [[1], 3, [1, 1, 1]],
    [[2], 5, [2, 2, 1]],
    [[2], 4, [2, 2]],
    [[10], 3, [3]],
    [[1, 2, 3], 10, [1, 2, 3, 3, 1]],
    [[1, 5], 3, [1, 2]],
    [['25%'], 6, [1, 1, 1, 1, 1, 1]],
    [[1, '50%'], 6, [1, 3, 2]],
    [['100%'], 6, [6]],
    [['50%'], 5, [2, 2, 1]],
    [['12.5%'], 16, [2, 2, 2, 2, 2, 2, 2, 2]],
    [['10%'], 3, [1, 1, 1]],
    [[1, '10%', '50%'], 20, [1, 2, 10, 7]],
    // exact: Ansible's float arithmetic makes 0.29 * 100 = 28.999...
    [['29%', '100%'], 100, [29, 71]],
    [[1], 0, []],
    [['50%'], 0, []],
  ];
  t.deepEqual(
    table.map(([steps, total]) => [steps, total, batchSizes(steps, total)]),
    table,
  );
});

test('allowed failures: a count, or floor(p% of the targeted hosts)', (t) => {
  const table: [spec: FailBudgetSpec, targeted: number, allowed: number][] = [
    [0, 6, 0],
    [1, 6, 1],
    [3, 2, 3],
    ['0%', 6, 0],
    ['20%', 6, 1],
    ['20%', 4, 0],
    ['20%', 5, 1],
    ['50%', 5, 2],
    ['50%', 6, 3],
    ['33.3%', 3, 0],
    ['33.4%', 3, 1],
    ['100%', 6, 6],
    ['100%', 0, 0],
  ];
  t.deepEqual(
    table.map(([spec, targeted]) => [spec, targeted, allowedFailures(spec, targeted)]),
    table,
  );
});

const SERIAL_EXPECTED = "expected a host count (1, 2, ...) or a percentage ('25%')";

test('serial values: accepted and refused', (t) => {
  const table: [value: unknown, result: ReturnType<typeof outcome<SerialStep[]>>][] = [
    [1, [1]],
    [3, [3]],
    ['3', [3]],
    [' 3 ', [3]],
    ['25%', ['25%']],
    ['12.5%', ['12.5%']],
    ['100%', ['100%']],
    [
      [1, '25%', '100%'],
      [1, '25%', '100%'],
    ],
    [
      ['2', 3],
      [2, 3],
    ],
    ['1,25%,100%', [1, '25%', '100%']],
    ['1, 50%', [1, '50%']],
    [0, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got 0` }],
    [-2, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got -2` }],
    [2.5, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got 2.5` }],
    ['0', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "0"` }],
    ['abc', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "abc"` }],
    ['', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got ""` }],
    ['-1', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "-1"` }],
    ['25 %', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "25 %"` }],
    ['%', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "%"` }],
    ['0%', { field: 'serial', message: 'serial: a percentage must be above 0% and at most 100%, got "0%"' }],
    ['0.0%', { field: 'serial', message: 'serial: a percentage must be above 0% and at most 100%, got "0.0%"' }],
    ['150%', { field: 'serial', message: 'serial: a percentage must be above 0% and at most 100%, got "150%"' }],
    [true, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got true` }],
    [false, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got false` }],
    [null, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got null` }],
    [undefined, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got nothing` }],
    [{ n: 1 }, { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got {"n":1}` }],
    [[], { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, or a list of them, got an empty list` }],
    [[1, 'abc'], { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "abc"` }],
    [[[1]], { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got [1]` }],
    ['1,,2', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got ""` }],
    ['1,abc', { field: 'serial', message: `serial: ${SERIAL_EXPECTED}, got "abc"` }],
  ];
  t.deepEqual(
    table.map(([value]) => [value, outcome(() => parseSerial(value, 'serial'))]),
    table,
  );
});

test('one serial step: a list is not a step; where names the value', (t) => {
  const table: [value: unknown, result: ReturnType<typeof outcome<SerialStep>>][] = [
    ['7', 7],
    ['7%', '7%'],
    [
      [1],
      {
        field: 'pb.yml: rolling.serial',
        message: `pb.yml: rolling.serial: ${SERIAL_EXPECTED}, got [1]`,
      },
    ],
    [
      '1,2',
      {
        field: 'pb.yml: rolling.serial',
        message: `pb.yml: rolling.serial: ${SERIAL_EXPECTED}, got "1,2"`,
      },
    ],
  ];
  t.deepEqual(
    table.map(([value]) => [value, outcome(() => parseSerialStep(value, 'pb.yml: rolling.serial'))]),
    table,
  );
});

const BUDGET_EXPECTED = "expected a number of failures (0, 1, ...) or a percentage of the targeted hosts ('20%')";

test('maxFail values: accepted (0 and 0% included) and refused', (t) => {
  const table: [value: unknown, result: ReturnType<typeof outcome<FailBudgetSpec>>][] = [
    [0, 0],
    [2, 2],
    ['0', 0],
    ['2', 2],
    ['0%', '0%'],
    ['20%', '20%'],
    ['12.5%', '12.5%'],
    ['100%', '100%'],
    [-1, { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got -1` }],
    [1.5, { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got 1.5` }],
    ['abc', { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got "abc"` }],
    ['', { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got ""` }],
    ['150%', { field: '--max-fail', message: '--max-fail: a percentage must be from 0% to 100%, got "150%"' }],
    [true, { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got true` }],
    [[1], { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got [1]` }],
    ['1,2', { field: '--max-fail', message: `--max-fail: ${BUDGET_EXPECTED}, got "1,2"` }],
  ];
  t.deepEqual(
    table.map(([value]) => [value, outcome(() => parseFailBudget(value, '--max-fail'))]),
    table,
  );
});
