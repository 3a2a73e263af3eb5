// How product code imports: no import circles, and steps that reach a host through runner/core only.
// A module that imports itself through others loads half-built (one side sees the other's exports as
// undefined at load time) and cannot be understood, or moved, alone. Type-only imports count too: they
// are erased at run time, but the two files are still one concept split in two. dpdm reads the imports
// with TypeScript's parser and resolves `./x.js` to `x.ts`, as NodeNext does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { type DependencyTree, parseCircular, parseDependencyTree } from 'dpdm';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PRODUCT = ['runner', 'tasks', 'playbooks', 'lab'];

async function importsOf(dir: string, globs: readonly string[]): Promise<DependencyTree> {
  return parseDependencyTree([...globs], { context: dir, cwd: dir, transform: false, skipDynamicImports: false });
}

const circlesOf = (tree: DependencyTree) => parseCircular(tree).map((circle) => [...circle, circle[0]].join(' -> '));

const product = importsOf(
  root,
  PRODUCT.map((dir) => `${dir}/**/*.ts`),
);

test('product code has no import circles', async (t) => {
  const tree = await product;
  t.true(Object.keys(tree).length > 300, 'the globs found the product files');
  // An import left unresolved would hide a circle through it.
  const unresolved = Object.values(tree).flatMap((deps) =>
    (deps ?? []).filter((d) => d.id === null && d.request.startsWith('.')).map((d) => `${d.issuer}: ${d.request}`),
  );
  t.deepEqual(unresolved, []);
  const circles = circlesOf(tree);
  t.deepEqual(
    circles,
    [],
    `import circles (move what both sides need into a module of its own):\n${circles.join('\n')}`,
  );
});

test('steps (tasks/) do not import the transport: what they need of it comes through runner/core', async (t) => {
  const tree = await product;
  const reaching = Object.entries(tree).flatMap(([file, deps]) =>
    file.startsWith('tasks/')
      ? (deps ?? []).filter((d) => d.id?.startsWith('runner/transport/')).map((d) => `${file} -> ${d.id}`)
      : [],
  );
  t.deepEqual(reaching, []);
});

test('the check sees a circle through `.js` imports, a type-only one and a dynamic one', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'play-circles-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const files: Record<string, string> = {
    // dpdm resolves `./b.js` to b.ts as the compiler does, so it needs the compiler's options, as the product has.
    'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
    'a.ts': "import { b } from './b.js';\nexport const a = () => b;\n",
    'b.ts': "import type { C } from './c.js';\nexport const b: C = 1;\n",
    'c.ts': "export type C = number;\nexport const c = () => import('./a.js');\n",
    'd.ts': "import { a } from './a.js';\nexport const d = a;\n",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  t.deepEqual(circlesOf(await importsOf(dir, ['*.ts'])), ['a.ts -> b.ts -> c.ts -> a.ts']);
});
