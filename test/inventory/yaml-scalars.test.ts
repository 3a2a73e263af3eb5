// YAML 1.1 as PyYAML reads it (ansible's loader), not as the YAML spec or YAML 1.2 would: a value
// that ansible reads as a string must not become a boolean or a number here, and the reverse.
import test from 'ava';
import { loadInventory } from '../../runner/inventory/load.js';
import { ansibleHostVars, requireAnsible } from './ansible-oracle.js';

const FILE = new URL('fixtures/scalars.yaml', import.meta.url).pathname;
const inv = loadInventory(FILE);

test('YAML 1.1 scalars as PyYAML resolves them', (t) => {
  const vars = inv.host('y')!.vars;
  t.like(vars, {
    flag_yes: true,
    flag_on: true,
    flag_no: false,
    flag_n: 'n',
    exp_no_dot: '1e3',
    exp: 1500,
    octal: 18,
    hex: 31,
    underscores: 1000,
    mac: ((((52 * 60 + 54) * 60 + 0) * 60 + 12) * 60 + 34) * 60 + 56,
    mac_quoted: '52:54:00:12:34:56',
    version: 1.1,
    nothing: null,
  });
});

test('oracle: the same values as ansible-inventory --host', async (t) => {
  requireAnsible();
  const theirs = await ansibleHostVars(FILE, 'y');
  t.deepEqual({ ...inv.host('y')!.vars }, theirs);
});
