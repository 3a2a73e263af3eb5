// A playbook outside play's checkout, as the CLI (compiled) loads it: .ts, .mts, .js and .mjs, in a
// folder whose package.json says "type": "module", "commonjs", or nothing at all, importing `play`,
// `play/linux` and a helper of its own that imports it back (a cycle: what failed under tsx as
// "Cannot require() ES Module ... in a cycle"). And one copy of play: a playbook whose folder holds a
// copy of play in node_modules gets the CLI's own modules, so the CLI knows the playbook's InputError.
import test from 'ava';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { play, projectRoot } from '../helpers/play.js';

const dirs: string[] = [];
test.after.always('remove the folders', () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A folder with these files (paths relative to it), and an inventory of one host. */
function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-load-'));
  dirs.push(dir);
  files['inventory.yml'] ??= 'all:\n  hosts:\n    h1:\n      ansible_host: 192.0.2.1\n';
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const PACKAGE_TYPES = { module: '{ "type": "module" }\n', commonjs: '{ "type": "commonjs" }\n', none: '{}\n' };

/** The playbook `pb.EXT` and its helper, which imports the playbook back. */
function playbookFiles(ext: 'ts' | 'mts' | 'js' | 'mjs'): Record<string, string> {
  const typed = ext.endsWith('ts');
  const self = `../pb.${ext.startsWith('m') ? 'mjs' : 'js'}`;
  return {
    [`playbooks/pb.${ext}`]: [
      "import { definePlaybook } from 'play';",
      "import { directory } from 'play/linux';",
      "import { DIR } from './lib/paths.js';",
      `export const NAME${typed ? ': string' : ''} = 'pb-${ext}';`,
      "export default definePlaybook({ name: NAME, description: `from ${DIR}`, tasks: { a: { on: 'all', step: directory({ path: DIR }) } } });",
      '',
    ].join('\n'),
    [`playbooks/lib/paths.${typed ? 'ts' : 'js'}`]: [
      `import { NAME } from '${self}';`,
      `export const DIR${typed ? ': string' : ''} = '/srv/load-test';`,
      'export const label = () => NAME;',
      '',
    ].join('\n'),
  };
}

for (const [type, packageJson] of Object.entries(PACKAGE_TYPES)) {
  for (const ext of ['ts', 'mts', 'js', 'mjs'] as const) {
    test(`a .${ext} playbook in a folder of package type ${type}: loaded, with its helper cycle, no warning`, async (t) => {
      const dir = folder({ 'package.json': packageJson, ...playbookFiles(ext) });
      const r = await play(['graph', join(dir, `playbooks/pb.${ext}`), '-i', join(dir, 'inventory.yml')], {}, dir);
      t.is(r.code, 0, r.stderr);
      t.regex(r.stdout, new RegExp(`^pb-${ext}: from /srv/load-test\\n`));
      t.regex(r.stdout, /wave 1:\n {2}a @ h1\n/);
      t.is(r.stderr, '');
    });
  }
}

test("a copy of play in the folder: the playbook gets the CLI's modules, so its InputError is exit 65, one line", async (t) => {
  const dir = folder({
    'package.json': '{}\n',
    'playbooks/needs-var.ts': [
      "import { definePlaybook, stringVar } from 'play';",
      "import { directory } from 'play/linux';",
      'export default definePlaybook({',
      "  name: 'needs-var',",
      "  description: 'reads app_dir',",
      "  tasks: { a: { on: 'all', step: ({ host }) => directory({ path: stringVar(host, 'app_dir') }) } },",
      '});',
      '',
    ].join('\n'),
  });
  // What `npm install` of a tarball leaves: a copy, not a link to the CLI's package.
  cpSync(join(projectRoot, 'package.json'), join(dir, 'node_modules/play/package.json'));
  cpSync(join(projectRoot, 'dist'), join(dir, 'node_modules/play/dist'), { recursive: true });
  const r = await play(['needs-var', '-i', 'inventory.yml', '--check'], {}, dir);
  t.is(r.code, 65, r.stderr);
  t.is(r.stderr, "play: task 'a' for host h1: app_dir of h1 must be a non-empty string, got nothing\n");
});

test('a TypeScript syntax error in a folder without "type": "module": exit 65 naming file, line and column', async (t) => {
  const dir = folder({
    'package.json': '{}\n',
    'playbooks/broken.ts':
      "import { definePlaybook } from 'play';\nexport default definePlaybook({ name: 'broken',, });\n",
  });
  const r = await play(['graph', 'broken'], {}, dir);
  t.is(r.code, 65, r.stderr);
  t.is(r.stderr, `play: ${join(dir, 'playbooks/broken.ts')}:2:48: Expected identifier but found ","\n`);
});
