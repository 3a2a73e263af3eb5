// `npm run demo` as a newcomer meets it: the demo onboards node009 against the lab's own inventory,
// then every command it prints under "Try next" is run as pasted (sh, in the checkout, with no
// inventory or secret exported) and must exit 0. The last suggestion, `npx play lab down`, is only
// checked for its wording: taking the shared lab down would pull it from under other test files.
import test from 'ava';
import { spawn } from 'node:child_process';
import { ensureLab } from '../helpers/lab.js';
import { projectRoot } from '../helpers/play.js';
import { holdTorHosts } from './fixtures/lab-locks.js';

/** The environment of a clean shell: no inventory, no lab secret, no VRRP password exported. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['PLAY_INVENTORY', 'VRRP_AUTH_PASS', 'PLAY_LAB_WINDOWS_PASSWORD']) delete env[name];
  return env;
}

function run(command: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: projectRoot, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** The commands of the demo's "Try next" block, comments cut off. */
function tryNextCommands(demoOutput: string): string[] {
  const block = /^Try next[^\n]*\n((?: {2}\S[^\n]*\n)+)/m.exec(demoOutput)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/#.*$/, '').trim())
    .filter((l) => l !== '');
}

test('tryNextCommands reads the block as printed', (t) => {
  const printed =
    'x\nTry next (in this checkout):\n  npx play a --b   # why\n  npx play c        # why # twice\nWhen you are done: npx play lab down\n';
  t.deepEqual(tryNextCommands(printed), ['npx play a --b', 'npx play c']);
  t.deepEqual(tryNextCommands('no block\n'), []);
});

test('npm run demo onboards node009, and every command it suggests works when pasted', async (t) => {
  t.timeout(600_000);
  await ensureLab({ linux: 3, tor: 3, windows: 3, control: 1 });
  // The demo and its suggestions onboard node009/node010 and rewrite keepalived on tor1..3.
  const release = await holdTorHosts();
  t.teardown(release);

  const demo = await run(process.execPath, ['--import', 'tsx', 'lab/demo/demo.ts']);
  t.is(demo.code, 0, demo.output);
  t.regex(demo.output, /node009 is Ready with pod CIDR 198\.19\.\d+\.0\/24/);
  t.regex(demo.output, /\$ play onboard-windows --limit node009 --no-live/, 'the demo itself runs without -i');
  t.regex(demo.output, /^When you are done: npx play lab down$/m);

  const commands = tryNextCommands(demo.output);
  t.true(commands.length >= 4, demo.output);
  for (const command of commands) {
    t.regex(command, /^npx play /, 'a suggestion is a play command');
    const r = await run('sh', ['-c', command]);
    t.is(r.code, 0, `${command}\n${r.output}`);
    t.notRegex(r.output, /^\s+at .+:\d+:\d+\)?$/m, `${command}: no stack trace`);
  }
});
