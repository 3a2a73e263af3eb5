// The lab stays out of the product: nothing under runner/, tasks/ or playbooks/ imports lab/ (static,
// dynamic or type-only), so the package can ship without it. `play lab` finds the lab beside the code
// that runs (lab-location.ts), and the inventory lookup knows only the lab's state directory
// (lab-state-dir.ts), whose names lab/paths.ts keeps a copy of. The other way, the lab is built on
// play's public API: a lab file imports play only through the package's entries ("exports").
import path from 'node:path';
import test from 'ava';
import { type Dependency, type DependencyTree, parseDependencyTree } from 'dpdm';
import { DEFAULT_LAB_DIR, labPaths } from '../../lab/paths.js';
import { type LabModule, locateLab } from '../../runner/cli/lab-location.js';
import { labStateDir, labStateFiles } from '../../runner/cli/lab-state-dir.js';
import { projectRoot } from '../helpers/play.js';

/** The source files of package.json's "exports" ('play', 'play/linux', 'play/windows', 'play/testing'). */
const PUBLIC_ENTRIES = ['runner/index.ts', 'runner/testing/index.ts', 'tasks/linux/index.ts', 'tasks/windows/index.ts'];
/** Where play's code is: a lab file may import from it only one of the public entries (or a shipped playbook). */
const PLAY_CODE = /^(runner|tasks|playbooks)\//;

/** `lab/x.ts -> request` for each import of a lab file into play's code other than a public entry. */
function deepImportsOfTheLab(tree: DependencyTree): string[] {
  return Object.entries(tree)
    .filter(([file]) => file.startsWith('lab/'))
    .flatMap(([file, deps]) =>
      (deps ?? [])
        .filter((d) => d.id !== null && PLAY_CODE.test(d.id))
        .filter((d) => !PUBLIC_ENTRIES.includes(d.id!) && !/^playbooks\/[^/]+\.ts$/.test(d.id!))
        .map((d) => `${file} -> ${d.request}`),
    )
    .sort();
}

test('no product module imports the lab', async (t) => {
  const tree = await parseDependencyTree(['runner/**/*.ts', 'tasks/**/*.ts', 'playbooks/**/*.ts'], {
    context: projectRoot,
    cwd: projectRoot,
    transform: false,
    skipDynamicImports: false,
  });
  t.true(Object.keys(tree).length > 300, 'the glob found the product files');
  // A step folder's tests (tasks/windows/steps/<step>/*.test.ts) sit beside its code but are neither
  // built nor shipped: what they import (the lab, test/ helpers) is not the product's. No product
  // file imports test/ either, so nothing reaches the lab through a test helper.
  const product = (file: string) => PLAY_CODE.test(file) && !/\.test\.ts$/.test(file);
  const intoLab = Object.values(tree)
    .flatMap((deps) => deps ?? [])
    .filter((d) => product(d.issuer))
    .filter((d) => d.id !== null && /^(lab|test)\//.test(path.relative(projectRoot, path.resolve(projectRoot, d.id))))
    .map((d) => `${d.issuer} -> ${d.request}`);
  t.deepEqual(intoLab, []);
});

test("the lab imports play only through the package's public entries", async (t) => {
  const tree = await parseDependencyTree(['lab/**/*.ts'], {
    context: projectRoot,
    cwd: projectRoot,
    transform: false,
    skipDynamicImports: false,
  });
  t.true(Object.keys(tree).filter((f) => f.startsWith('lab/')).length > 100, 'the glob found the lab files');
  t.deepEqual(deepImportsOfTheLab(tree), []);
});

test('the public-entry check names each deep import of a lab file', (t) => {
  const dep = (issuer: string, request: string, id: string | null): Dependency => ({
    issuer,
    request,
    id,
    kind: 'StaticImport' as Dependency['kind'],
  });
  const tree: DependencyTree = {
    'lab/up.ts': [
      dep('lab/up.ts', '../runner/index.js', 'runner/index.ts'),
      dep('lab/up.ts', '../runner/core/errors.js', 'runner/core/errors.ts'),
      dep('lab/up.ts', './paths.js', 'lab/paths.ts'),
      dep('lab/up.ts', 'node:fs', 'node:fs'),
      dep('lab/up.ts', 'yaml', 'node_modules/yaml/dist/index.js'),
    ],
    'lab/windows/call.ts': [
      dep('lab/windows/call.ts', '../../runner/testing/index.js', 'runner/testing/index.ts'),
      dep('lab/windows/call.ts', '../../tasks/windows/index.js', 'tasks/windows/index.ts'),
      dep('lab/windows/call.ts', '../../tasks/windows/remote/contract.js', 'tasks/windows/remote/contract.ts'),
      dep('lab/windows/call.ts', '../../playbooks/bench.js', 'playbooks/bench.ts'),
    ],
    // play's own files import what they like: only the lab's imports are checked.
    'runner/index.ts': [dep('runner/index.ts', './core/errors.js', 'runner/core/errors.ts')],
  };
  t.deepEqual(deepImportsOfTheLab(tree), [
    'lab/up.ts -> ../runner/core/errors.js',
    'lab/windows/call.ts -> ../../tasks/windows/remote/contract.js',
  ]);
});

test("the lab's entry module is what `play lab` expects of it", async (t) => {
  // Type-checked by `tsc --noEmit` (the tests are in tsconfig.json): a change to lab/lab.ts's
  // functions that play lab relies on is a compile error here.
  const lab: LabModule = await import('../../lab/lab.js');
  t.deepEqual(
    Object.entries(lab)
      .filter(([name]) => ['labUp', 'labDown', 'labInventoryPath', 'labStatus'].includes(name))
      .map(([name, value]) => [name, typeof value])
      .sort(),
    [
      ['labDown', 'function'],
      ['labInventoryPath', 'function'],
      ['labStatus', 'function'],
      ['labUp', 'function'],
    ],
  );
});

test('where play lab finds the lab: a checkout compiled or from its sources, else how to get it', (t) => {
  const checkout = ['/co/dist/lab/lab.js', '/co/lab/lab.ts'];
  const unbuilt = ['/co/lab/lab.ts'];
  const cases = [
    { what: 'checkout, compiled', at: { codeRoot: '/co/dist', packageRoot: '/co', compiled: true }, files: checkout },
    { what: 'checkout, sources', at: { codeRoot: '/co', packageRoot: '/co', compiled: false }, files: checkout },
    { what: 'checkout, not built', at: { codeRoot: '/co/dist', packageRoot: '/co', compiled: true }, files: unbuilt },
    {
      what: 'installed package',
      at: { codeRoot: '/nm/play-runner/dist', packageRoot: '/nm/play-runner', compiled: true },
      files: [],
    },
  ];
  t.deepEqual(
    cases.map((c) => [c.what, locateLab(c.at, (p) => c.files.includes(p))]),
    [
      ['checkout, compiled', { entry: '/co/dist/lab/lab.js' }],
      ['checkout, sources', { entry: '/co/lab/lab.ts' }],
      ['checkout, not built', { missing: 'the lab is not built: run `npm run build` in /co' }],
      [
        'installed package',
        {
          missing:
            "the built-in lab is not installed with this copy of play: it comes with play's repository. " +
            'Clone the repository, run `npm ci && npm link` in it (README.md), and run `play lab` from that copy',
        },
      ],
    ],
  );
});

test("play's view of the lab's state directory names the lab's own files", (t) => {
  t.is(labStateDir({}), DEFAULT_LAB_DIR);
  const lab = labPaths('/var/lib/play-lab');
  t.deepEqual(labStateFiles('/var/lib/play-lab'), {
    dir: lab.dir,
    state: lab.state,
    inventory: lab.inventory,
    env: lab.env,
    legacyWindowsEnv: lab.legacyWindowsEnv,
  });
  t.deepEqual(labStateFiles('/var/lib/play-lab'), {
    dir: '/var/lib/play-lab',
    state: '/var/lib/play-lab/state.json',
    inventory: '/var/lib/play-lab/inventory.yaml',
    env: '/var/lib/play-lab/lab.env',
    legacyWindowsEnv: '/var/lib/play-lab/windows.env',
  });
});
