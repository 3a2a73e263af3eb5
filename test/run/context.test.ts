import test from 'ava';
import { InventoryError } from '../../runner/core/errors.js';
import { isSecret } from '../../runner/core/secret.js';
import { EnvRef, type Host } from '../../runner/inventory/model.js';
import { hostView } from '../../runner/run/context.js';

const host = (vars: Record<string, unknown>): Host => ({
  name: 'tor1',
  vars,
  groups: ['all'],
  connection: { address: '198.18.0.11', port: 22, user: 'root', os: 'linux' },
});

test('a variable from the environment is a Secret when read, and only then', (t) => {
  process.env.PLAY_T_VRRP = 'p4ss';
  const view = hostView(
    host({ vrrp_auth_pass: new EnvRef('PLAY_T_VRRP'), plain: 1, unused: new EnvRef('PLAY_T_NOT_SET') }),
    {},
  );
  t.is(view.vars.plain, 1);
  const pass = view.vars.vrrp_auth_pass;
  t.true(isSecret(pass));
  t.is((pass as any).reveal(), 'p4ss');
  const e = t.throws(() => view.vars.unused, { instanceOf: InventoryError });
  t.regex(e!.message, /host tor1: unused needs environment variable PLAY_T_NOT_SET, which is not set/);
});

test('extra vars override inventory vars, secrets included', (t) => {
  const view = hostView(host({ a: 1, s: new EnvRef('PLAY_T_NOT_SET') }), { a: 'x', s: 'given' });
  t.deepEqual({ ...view.vars }, { a: 'x', s: 'given' });
});
