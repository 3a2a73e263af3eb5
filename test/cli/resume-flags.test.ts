// `play resume` takes a rolling run's connection flags (-u, --private-key, -b, -k, -K...) and output
// flags (-v, --events, --log), through the real CLI: listed in its help, and read (a bad one refused
// with its own message, exit 64) before the state store is looked at.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { play } from '../helpers/play.js';

const dir = mkdtempSync(join(tmpdir(), 'play-resume-flags-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

test('play resume --help lists the connection and output flags', async (t) => {
  const r = await play(['resume', '--help']);
  t.is(r.code, 0, r.stderr);
  const flags = [
    '-u, --user',
    '--private-key',
    '-b, --become',
    '--become-user',
    '-k, --ask-pass',
    '-K, --ask-become-pass',
  ];
  t.deepEqual(
    [...flags, '-v, --verbose', '--events', '--log'].filter((f) => !r.stdout.includes(f)),
    [],
    r.stdout,
  );
  t.regex(r.stdout, /^Connection \(as ansible-playbook\):$/m);
});

test('a bad flag is refused naming it (-u: 64, a missing key: 65), before the state store is read', async (t) => {
  const state = join(dir, 'none.db');
  const rows = [
    [['-u', 'bad user!'], 64, "play: -u 'bad user!': expected a user name\n"],
    [['--private-key', join(dir, 'missing')], 65, new RegExp(`^play: --private-key ${join(dir, 'missing')}: `)],
    [[], 64, new RegExp(`^play: resume: no state store at ${state} yet: no rolling run to resume\\n$`)],
  ] as const;
  for (const [args, code, message] of rows) {
    const r = await play(['resume', '--state', state, ...args]);
    t.is(r.code, code, `${args.join(' ')}: ${r.stderr}`);
    if (typeof message === 'string') t.is(r.stderr, message);
    else t.regex(r.stderr, message);
  }
});
