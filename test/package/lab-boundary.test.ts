// The lab stays out of the product: nothing under runner/, tasks/ or playbooks/ imports lab/ (static,
// dynamic or type-only), so the package can ship without it. `play lab` finds the lab beside the code
// that runs (lab-location.ts), and the inventory lookup knows only the lab's state directory
// (lab-state-dir.ts), whose names lab/paths.ts shares.
import path from 'node:path';
import test from 'ava';
import { parseDependencyTree } from 'dpdm';
import { labPaths } from '../../lab/paths.js';
import { type LabModule, locateLab } from '../../runner/cli/lab-location.js';
import { labStateFiles } from '../../runner/cli/lab-state-dir.js';
import { projectRoot } from '../helpers/play.js';

test('no product module imports the lab', async (t) => {
  const tree = await parseDependencyTree(['runner/**/*.ts', 'tasks/**/*.ts', 'playbooks/**/*.ts'], {
    context: projectRoot,
    cwd: projectRoot,
    transform: false,
    skipDynamicImports: false,
  });
  t.true(Object.keys(tree).length > 300, 'the glob found the product files');
  const intoLab = Object.values(tree)
    .flatMap((deps) => deps ?? [])
    .filter((d) => d.id !== null && path.relative(projectRoot, path.resolve(projectRoot, d.id)).startsWith('lab/'))
    .map((d) => `${d.issuer} -> ${d.request}`);
  t.deepEqual(intoLab, []);
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
