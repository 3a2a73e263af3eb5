import test from 'ava';
import { diffFields } from '../../runner/core/change.js';

interface D {
  path: string;
  mode?: string;
  owner?: string;
  value?: number;
}

const table: { name: string; desired: D; actual: Partial<D> | null; action: string; fields: string[] }[] = [
  {
    name: 'absent is create',
    desired: { path: '/a', mode: '0644' },
    actual: null,
    action: 'create',
    fields: ['path', 'mode'],
  },
  {
    name: 'equal is noop',
    desired: { path: '/a', mode: '0644' },
    actual: { path: '/a', mode: '0644' },
    action: 'noop',
    fields: [],
  },
  {
    name: 'one field differs',
    desired: { path: '/a', mode: '0644' },
    actual: { path: '/a', mode: '0600' },
    action: 'update',
    fields: ['mode'],
  },
  {
    name: 'unmanaged field never differs',
    desired: { path: '/a' },
    actual: { path: '/a', mode: '0600' },
    action: 'noop',
    fields: [],
  },
  {
    name: 'zero is a value, not absence',
    desired: { path: '/a', value: 0 },
    actual: { path: '/a', value: 1 },
    action: 'update',
    fields: ['value'],
  },
  {
    name: 'zero equals zero',
    desired: { path: '/a', value: 0 },
    actual: { path: '/a', value: 0 },
    action: 'noop',
    fields: [],
  },
];

for (const row of table) {
  test(`diffFields: ${row.name}`, (t) => {
    const c = diffFields(row.desired, row.actual, ['path', 'mode', 'owner', 'value']);
    t.is(c.action as string, row.action);
    t.deepEqual([...c.fields], row.fields);
    if (c.action === 'update') {
      for (const f of row.fields) {
        t.is(c.after![f], (row.desired as any)[f]);
        t.is(c.before![f], (row.actual as any)[f] ?? null);
      }
    }
  });
}

test('diffFields compares values regardless of key order, arrays in order', (t) => {
  const fields = ['v'] as const;
  t.is(diffFields({ v: { a: 1, b: [1, { c: 2 }] } }, { v: { b: [1, { c: 2 }], a: 1 } }, fields).action, 'noop');
  t.deepEqual(diffFields({ v: [1, 2] }, { v: [2, 1] }, fields).fields, ['v']);
  t.deepEqual(diffFields({ v: { a: 1 } }, { v: { a: 1, b: undefined } }, fields).fields, ['v']);
  t.deepEqual(diffFields({ v: 0 }, { v: null }, fields).fields, ['v']);
});
