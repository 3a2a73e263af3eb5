// `play completion` end to end: the bash script sourced in a real bash, its function called as bash
// calls it at a Tab (COMP_WORDS, COMP_CWORD), with `play` on the PATH as `npm link` puts it; the zsh
// script parsed by zsh -n. What a Tab offers: commands, options, playbook names (as `play list`
// finds them), group and host names after --limit. Needs dist/ (node scripts/build.mjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import test from 'ava';
import { play, projectRoot } from '../helpers/play.js';

const dir = mkdtempSync(join(tmpdir(), 'play-completion-'));
const bin = join(dir, 'bin');
const inventory = join(dir, 'inventory.yaml');
test.before(() => {
  spawnSync('mkdir', ['-p', bin]);
  writeFileSync(
    join(bin, 'play'),
    `#!/bin/sh\nexec "${process.execPath}" "${resolve(projectRoot, 'bin/play.mjs')}" "$@"\n`,
  );
  chmodSync(join(bin, 'play'), 0o755);
  writeFileSync(
    inventory,
    'all:\n  children:\n    tor:\n      hosts:\n        tor1: { ansible_host: 198.18.0.11 }\n    windows:\n      hosts:\n        node009: { ansible_host: 198.18.1.9 }\n',
  );
});
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers at a Tab after `line` (the last word is the one being completed). */
function tab(line: string[]): string[] {
  const words = line.map((w) => `'${w}'`).join(' ');
  const script = `source <(play completion bash)
COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}
_play_yargs_completions
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const r = spawnSync('bash', ['-c', script], {
    cwd: projectRoot,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, PLAY_INVENTORY: inventory, SHELL: '/bin/bash' },
  });
  if (r.status !== 0 || r.stderr) throw new Error(`bash: exit ${r.status}: ${r.stderr}`);
  return r.stdout.split('\n').filter(Boolean);
}

test('a Tab in a real bash: commands, playbooks, options, shells, and the inventory names after --limit', (t) => {
  t.deepEqual(
    [
      tab(['play', 'dr']),
      tab(['play', 'tor']),
      tab(['play', 'drift', '--mark']),
      tab(['play', 'drift', 'onb']),
      tab(['play', 'completion', '']),
      tab(['play', 'tor-gateway', '--limit', '']),
      tab(['play', 'drift', '-l', 'node']),
      tab(['play', 'hosts', 'tor:!n']),
    ],
    [
      ['drift'],
      ['tor-gateway'],
      ['--markdown'],
      ['onboard-windows'],
      ['bash', 'zsh'],
      ['all', 'ungrouped', 'tor', 'windows', 'tor1', 'node009'],
      ['node009'],
      ['tor:!node009'],
    ],
  );
});

test('the first word offers every command and every playbook `play list` shows, never a default-command placeholder', async (t) => {
  const list = await play(['list']);
  const playbooks = list.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(/\s+/)[0]);
  const offered = tab(['play', '']);
  for (const p of playbooks) t.true(offered.includes(p!), p);
  for (const c of ['drift', 'hosts', 'list', 'graph', 'lab', 'completion']) t.true(offered.includes(c), c);
  t.false(offered.some((w) => w.startsWith('$0') || w === 'completion-script'));
});

test('a Tab never runs the command it completes', (t) => {
  // `play drift -l <Tab>` parses the drift command: with the lab absent or present, nothing is probed.
  const state = join(dir, 'state.db');
  const r = spawnSync(join(bin, 'play'), ['--get-yargs-completions', 'play', 'drift', '--state', state, '-l', ''], {
    encoding: 'utf8',
    env: { ...process.env, PLAY_INVENTORY: inventory },
  });
  t.is(r.status, 0, r.stderr);
  t.is(r.stderr, '');
  t.is(spawnSync('test', ['-e', state]).status, 1, 'no drift run opened the state store');
});

test('play completion zsh is a script zsh parses; bash and $SHELL pick the template; another shell is exit 64', async (t) => {
  const zsh = await play(['completion', 'zsh']);
  t.is(zsh.code, 0, zsh.stderr);
  t.regex(zsh.stdout, /^#compdef play\n/);
  const parsed = spawnSync('zsh', ['-n'], { input: zsh.stdout, encoding: 'utf8' });
  t.is(parsed.error, undefined, 'zsh is installed (scripts/install-system.sh)');
  t.is(parsed.status, 0, parsed.stderr);
  t.is((await play(['completion'], { SHELL: '/usr/bin/zsh' })).stdout, zsh.stdout);
  const bash = await play(['completion'], { SHELL: '/bin/bash' });
  t.is(bash.stdout, (await play(['completion', 'bash'])).stdout);
  t.regex(bash.stdout, /complete -o bashdefault -o default -F _play_yargs_completions play/);
  const fish = await play(['completion', 'fish']);
  t.deepEqual([fish.code, fish.stderr], [64, "play: completion: shell 'fish': expected bash or zsh\n"]);
});
