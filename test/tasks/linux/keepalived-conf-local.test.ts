// keepalived -t and the keepalivedConf step for real (root only): keepalived 2.x checks rendered
// configs inside a throwaway network namespace that has an eth1 (see netns.ts), and the step's
// scripts run there with the local /bin/sh (local-remote.ts) against a temp directory.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RemoteError } from '../../../runner/core/errors.js';
import { keepalivedConf } from '../../../tasks/linux/keepalived-conf.js';
import {
  renderKeepalivedConf,
  renderKeepalivedConfMasked,
  validateKeepalivedConfig,
  type KeepalivedConfig,
} from '../../../tasks/linux/keepalived-model.js';
import { fieldNoteConfig, labConfig } from './keepalived-fixtures.js';
import { converge, localHost, plan, removeHosts, tree } from './local-remote.js';
import { canNetns, makeNetns } from './netns.js';

const realTest = canNetns ? test : test.skip;
test.after.always('remove the temp directories', removeHosts);

function keepalivedTest(ns: string, path: string): { code: number | null; output: string } {
  const r = spawnSync('ip', ['netns', 'exec', ns, 'keepalived', '-t', '-f', path], { encoding: 'utf8' });
  return { code: r.status, output: r.stdout + r.stderr };
}

const render = (c: unknown) => renderKeepalivedConf(validateKeepalivedConfig(c).config).reveal();
const withInterface = (c: KeepalivedConfig, dev: string): KeepalivedConfig => ({
  ...c,
  instance: { ...c.instance, interface: dev },
});

realTest(
  'keepalived -t: a rendered config passes; the field note as is, a missing interface and a long password do not',
  (t) => {
    const ns = makeNetns(t);
    const h = localHost();
    const check = (name: string, text: string) => {
      writeFileSync(join(h.root, name), text);
      const r = keepalivedTest(ns, join(h.root, name));
      t.log(`${name}: exit ${r.code}${r.output ? `\n${r.output.trimEnd()}` : ''}`);
      return r;
    };
    t.deepEqual(check('lab.conf', render(labConfig())), { code: 0, output: '' });

    // The field note's values (its password written quoted and cut to 8): only its 0 intervals fail.
    const note = check('note.conf', render(fieldNoteConfig()));
    t.is(note.code, 5);
    t.regex(note.output, /vrrp_garp_interval '0' is invalid/);
    t.regex(note.output, /vrrp_gna_interval '0' is invalid/);
    const { globalDefs: _, ...noIntervals } = fieldNoteConfig();
    t.deepEqual(check('note-2x.conf', render(noIntervals)), { code: 0, output: '' });

    const missing = check('missing.conf', render(withInterface(labConfig(), 'nosuch0')));
    t.is(missing.code, 5);
    t.regex(
      missing.output,
      /missing\.conf: Line 10\) WARNING - interface nosuch0 for vrrp_instance VI_PLAY_TEST doesn't exist/,
    );
    t.regex(missing.output, /Non-existent interface specified in configuration/);

    // Why the renderer writes 8 characters: keepalived -t fails on a longer auth_pass.
    const long = labConfig(['198.18.6.1'], 'longer-than-8');
    t.deepEqual(check('long.conf', render(long)), { code: 0, output: '' });
    const handWritten = renderKeepalivedConfMasked(validateKeepalivedConfig(long).config).replace(
      'auth_pass ********',
      'auth_pass longer-than-8',
    );
    const hand = check('hand.conf', handWritten);
    t.is(hand.code, 5);
    t.regex(hand.output, /Truncating auth_pass to 8 characters/);
  },
);

realTest('keepalivedConf: create, noop, a VIP added (the plan shows it, never the password)', async (t) => {
  const ns = makeNetns(t);
  const h = localHost(['ip', 'netns', 'exec', ns]);
  const path = join(h.root, 'keepalived.conf');
  const one = keepalivedConf({ path, config: labConfig(['198.18.6.1']) });
  const first = await converge(h, one);
  t.is(first.change.action, 'create');
  t.is(first.rest.action, 'noop');
  t.is(readFileSync(path, 'utf8'), one.desired.content.reveal());
  const st = statSync(path);
  t.is((st.mode & 0o7777).toString(8), '640');
  t.is(st.uid, 0);
  t.is(st.gid, 0);

  const two = keepalivedConf({ path, config: labConfig(['198.18.6.1', '198.18.7.1']) });
  const { actual, change } = await plan(h, two);
  // Masked on the host: the old password never came back.
  t.true(actual!.maskedText!.includes('        auth_pass ********\n'));
  t.false(actual!.maskedText!.includes('lab-pass'));
  t.deepEqual([...change.fields], ['content']);
  t.deepEqual(
    change.textDiff!.split('\n').filter((l) => /^[-+][^-+]/.test(l)),
    ['+        198.18.7.1/24 dev eth1 label eth1:2'],
  );
  t.is((await converge(h, two)).rest.action, 'noop');
  t.true(readFileSync(path, 'utf8').includes('        198.18.7.1/24 dev eth1 label eth1:2\n'));
  t.false(
    h.scripts.some((s) => s.includes('lab-pass')),
    'the password reached a command line',
  );
  t.false(JSON.stringify(change).includes('lab-pass'));
  t.deepEqual(tree(h.root), ['keepalived.conf']);
});

realTest(
  'keepalivedConf: a rewrite that also changes mode, owner and group sets them once, on the new file',
  async (t) => {
    const ns = makeNetns(t);
    const h = localHost(['ip', 'netns', 'exec', ns]);
    const path = join(h.root, 'keepalived.conf');
    writeFileSync(path, 'old config\n', { mode: 0o600 });
    chownSync(path, 1, 1);
    const s = keepalivedConf({ path, config: labConfig() });
    const { change, rest } = await converge(h, s);
    t.deepEqual([...change.fields], ['content', 'mode', 'owner', 'group']);
    t.is(rest.action, 'noop');
    const st = statSync(path);
    t.deepEqual([(st.mode & 0o7777).toString(8), st.uid, st.gid], ['640', 0, 0]);
    // The checked write names its temp file; nothing after it sets the mode or owner of the file again.
    const apply = h.scripts.find((x) => x.includes(' -t -f '));
    t.truthy(apply);
    t.false(apply!.includes(`chmod 0640 ${path}`));
    t.false(apply!.includes(`chown root:root ${path}`));
    t.deepEqual(tree(h.root), ['keepalived.conf']);
  },
);

realTest('keepalivedConf: a config keepalived -t rejects fails with its message and leaves the old file', async (t) => {
  const ns = makeNetns(t);
  const h = localHost(['ip', 'netns', 'exec', ns]);
  const path = join(h.root, 'keepalived.conf');
  writeFileSync(path, 'old config\n', { mode: 0o600 });
  const bad = keepalivedConf({ path, config: withInterface(labConfig(), 'nosuch0') });
  const { actual, change } = await plan(h, bad);
  t.deepEqual(change.textDiff!.split('\n').slice(0, 4), [
    `--- ${path}`,
    `+++ ${path}`,
    '@@ -1 +1,29 @@',
    '-old config',
  ]);
  const err = await t.throwsAsync(() => bad.apply(h, change, actual, bad.desired), { instanceOf: RemoteError });
  t.log(err!.message);
  t.is(err!.code, 5);
  t.true(
    err!.message.includes(
      `(${path} (new): Line 10) WARNING - interface nosuch0 for vrrp_instance VI_PLAY_TEST doesn't exist`,
    ),
    'keepalived names the file',
  );
  t.regex(err!.message, /WARNING - interface nosuch0 for vrrp_instance VI_PLAY_TEST doesn't exist/);
  t.regex(
    err!.message,
    new RegExp(
      `keepalived -t rejected the new configuration; ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is unchanged \\(exit 5\\)`,
    ),
  );
  t.is(readFileSync(path, 'utf8'), 'old config\n');
  t.is((statSync(path).mode & 0o777).toString(8), '600');
  t.deepEqual(tree(h.root), ['keepalived.conf'], 'the checked temp file was removed');
});

realTest(
  'keepalivedConf: a file edited after the probe, or no keepalived binary: apply refuses, nothing left behind',
  async (t) => {
    const ns = makeNetns(t);
    const h = localHost(['ip', 'netns', 'exec', ns]);
    const path = join(h.root, 'keepalived.conf');
    const s = keepalivedConf({ path, config: labConfig() });
    const { actual, change } = await plan(h, s);
    writeFileSync(path, 'written by someone else\n');
    await t.throwsAsync(() => s.apply(h, change, actual, s.desired), {
      message: /changed since it was probed; not overwriting it/,
    });
    t.is(readFileSync(path, 'utf8'), 'written by someone else\n');
    t.deepEqual(tree(h.root), ['keepalived.conf']);

    const noBin = keepalivedConf({ path, config: labConfig(), keepalivedBin: '/nonexistent/keepalived' });
    const p = await plan(h, noBin);
    t.regex(p.change.warnings!.join('\n'), /\/nonexistent\/keepalived is not installed/);
    const err = await t.throwsAsync(() => noBin.apply(h, p.change, p.actual, noBin.desired), {
      instanceOf: RemoteError,
    });
    t.is(err!.code, 127);
    t.is(readFileSync(path, 'utf8'), 'written by someone else\n');
    t.deepEqual(tree(h.root), ['keepalived.conf']);
  },
);

test('keepalivedConf probe: the masked text of a file up to 64 KiB by its stat size, none past it', async (t) => {
  const h = localHost();
  const path = join(h.root, 'keepalived.conf');
  const step = keepalivedConf({ path, config: labConfig() });
  const small = 'vrrp_instance VI_1 {\n    authentication {\n        auth_pass secret12\n    }\n}\n';
  const rows: [string, string, string | null][] = [
    ['small', small, small.replace('secret12', '********')],
    ['at the limit', `${'#'.repeat(64 * 1024 - 1)}\n`, `${'#'.repeat(64 * 1024 - 1)}\n`],
    ['past the limit', `${'#'.repeat(64 * 1024)}\n`, null],
  ];
  const got = [];
  for (const [, content] of rows) {
    writeFileSync(path, content);
    got.push((await plan(h, step)).actual!.maskedText);
  }
  t.deepEqual(
    got,
    rows.map(([, , masked]) => masked),
  );
});
