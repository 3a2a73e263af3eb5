// The shipped playbooks are written as a user's own playbook is: they import only the package's public
// entries (package.json "exports": 'play', 'play/linux', 'play/windows', by relative path here), their
// own files under playbooks/, and Node's builtins. A deep import (runner/core/errors.js) would work here
// and nowhere else, and would hide that the public entries lack something a user needs too.
import test from 'ava';
import { nonPublicImports } from './house-rules.js';
import { type ImportEdge, productImports, publicEntries } from './product-imports.js';

test("package.json's exports name the main entry, the two step libraries and the playbooks", (t) => {
  const entries = publicEntries();
  const expected = ['runner/index.ts', 'tasks/linux/index.ts', 'tasks/windows/index.ts', 'playbooks/'];
  t.deepEqual(
    expected.filter((e) => !entries.includes(e)),
    [],
  );
});

test('the shipped playbooks import only the public entries, their own files and builtins', async (t) => {
  const edges = await productImports(['playbooks']);
  t.true(edges.filter((e) => e.file.startsWith('playbooks/')).length > 20, 'the playbooks were read');
  t.deepEqual(nonPublicImports(edges, publicEntries()), []);
});

test('the rule catches a deep import, a type-only one and an unresolved one', (t) => {
  const edges: ImportEdge[] = [
    { file: 'playbooks/a.ts', request: '../runner/index.js', target: 'runner/index.ts' },
    { file: 'playbooks/a.ts', request: '../tasks/windows/index.js', target: 'tasks/windows/index.ts' },
    { file: 'playbooks/a.ts', request: './shared/b.js', target: 'playbooks/shared/b.ts' },
    { file: 'playbooks/a.ts', request: 'node:fs', target: 'node:fs' },
    { file: 'playbooks/a.ts', request: '../runner/core/errors.js', target: 'runner/core/errors.ts' },
    { file: 'playbooks/shared/b.ts', request: '../../runner/playbook/define.js', target: 'runner/playbook/define.ts' },
    { file: 'playbooks/shared/b.ts', request: 'zod', target: null },
    { file: 'runner/index.ts', request: './core/errors.js', target: 'runner/core/errors.ts' },
  ];
  t.deepEqual(nonPublicImports(edges, ['runner/index.ts', 'tasks/linux/index.ts', 'tasks/windows/index.ts']), [
    'playbooks/a.ts: ../runner/core/errors.js',
    'playbooks/shared/b.ts: ../../runner/playbook/define.js',
    'playbooks/shared/b.ts: zod',
  ]);
});
