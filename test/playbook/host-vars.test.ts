import test from 'ava';
import { InputError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import type { HostView } from '../../runner/playbook/define.js';
import { boolVar, intVar, listVar, optionalStringVar, stringVar } from '../../runner/playbook/host-vars.js';

const h = (vars: Record<string, unknown>): HostView => ({ name: 'tor1', vars, groups: ['all'], os: 'linux' });

test('typed reads of host vars; -e strings count as numbers and booleans', (t) => {
  const v = h({ n: '188', b: 'false', s: 'eth1', l: 'a, b', e: null, list: ['x'] });
  t.is(intVar(v, 'n', undefined, 1, 255), 188);
  t.is(intVar(v, 'missing', 7, 1, 255), 7);
  t.false(boolVar(v, 'b', true));
  t.is(stringVar(v, 's'), 'eth1');
  t.is(optionalStringVar(v, 'e'), undefined, 'an empty YAML value is unset');
  t.deepEqual(listVar(v, 'l', true), ['a', 'b']);
  t.deepEqual(listVar(v, 'list', true), ['x']);
  t.deepEqual(listVar(v, 'none', false), []);
});

test('errors name the variable, the host and what was expected, never a secret', (t) => {
  const v = h({ n: 300, s: '  ', pw: new Secret('hunter22', 'env:X'), b: 'yes' });
  t.is(
    t.throws(() => intVar(v, 'n', undefined, 1, 255, "keepalived's virtual_router_id"), { instanceOf: InputError })!
      .message,
    "n of tor1 (keepalived's virtual_router_id) must be an integer 1-255, got 300",
  );
  t.regex(t.throws(() => stringVar(v, 's'))!.message, /^s of tor1 must be a non-empty string/);
  t.is(t.throws(() => intVar(v, 'pw', undefined, 1, 2))!.message, 'pw of tor1 must be an integer 1-2, got a secret');
  t.regex(t.throws(() => boolVar(v, 'b', true))!.message, /b of tor1 must be true or false, got "yes"/);
  t.regex(t.throws(() => listVar(v, 'missing', true))!.message, /missing of tor1 is required/);
});
