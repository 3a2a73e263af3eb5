// Setuid and setgid bits against owner and group, with the real scripts run by the local /bin/sh
// (local-remote.ts), both as an exec and as a kept shell runs them. Linux clears a file's setuid and
// setgid bits on every chown, root's and an unchanged owner's included, so a script that set the mode
// before the owner would leave a file that drifts again at the next run. Each case is the three runs:
// the plan says what changes, apply makes it, and the plan after is a noop.
import test from 'ava';
import { chmodSync, chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { directory, file } from '../../../tasks/linux/index.js';
import { converge, localHost, removeHosts } from './local-remote.js';

const uid = String(process.getuid!()),
  gid = String(process.getgid!());
const modeOf = (p: string) => (statSync(p).mode & 0o7777).toString(8).padStart(4, '0');
// Giving a file away to another owner, so that the step has an owner to change, takes root.
const root = process.getuid?.() === 0;

test.after.always('remove the temp directories', removeHosts);

for (const kept of [false, true]) {
  const how = kept ? 'kept shell' : 'exec';

  test(`${how}: a new file gets its setuid and setgid bits with its owner and group`, async (t) => {
    const h = localHost([], kept);
    const path = join(h.root, 'helper');
    const { change, rest } = await converge(h, file({ path, content: 'x\n', mode: '6755', owner: uid, group: gid }));
    t.deepEqual(change.fields, ['content', 'mode', 'owner', 'group']);
    t.is(rest.action, 'noop');
    t.is(modeOf(path), '6755');
    // One chown sets both: one in each of the write's branches (the kept shell's, mktemp's), no chgrp.
    const apply = h.scripts.find((s) => s.includes('"$play_tmp"'))!;
    t.deepEqual([(apply.match(/\bchown\b/g) ?? []).length, (apply.match(/\bchgrp\b/g) ?? []).length], [2, 0]);
    t.true(apply.includes(`chown ${uid}:${gid} "$play_tmp"`));
  });

  test(`${how}: rewriting a setuid file keeps the mode the step does not manage`, async (t) => {
    const h = localHost([], kept);
    const path = join(h.root, 'helper');
    writeFileSync(path, 'old\n');
    chmodSync(path, 0o4755);
    const { change, rest } = await converge(h, file({ path, content: 'new\n' }));
    t.deepEqual(change.fields, ['content']);
    t.is(rest.action, 'noop');
    t.is(readFileSync(path, 'utf8'), 'new\n');
    t.is(modeOf(path), '4755');
  });

  (root ? test : test.skip)(`${how}: a new owner and a setuid mode on a file kept as it is`, async (t) => {
    const h = localHost([], kept);
    const path = join(h.root, 'helper');
    writeFileSync(path, 'x\n');
    chmodSync(path, 0o755);
    chownSync(path, 1, 1);
    const { change, rest } = await converge(h, file({ path, content: 'x\n', mode: '4755', owner: uid, group: gid }));
    t.deepEqual(change.fields, ['mode', 'owner', 'group']);
    t.is(rest.action, 'noop');
    t.is(modeOf(path), '4755');
    t.deepEqual([statSync(path).uid, statSync(path).gid], [Number(uid), Number(gid)]);
  });

  (root ? test : test.skip)(`${how}: a directory's setgid bit and a new owner and group, by one chown`, async (t) => {
    const h = localHost([], kept);
    const path = join(h.root, 'shared');
    const { rest: made } = await converge(h, directory({ path, mode: '2775' }));
    t.is(made.action, 'noop');
    chownSync(path, 1, 1);
    const { change, rest } = await converge(h, directory({ path, mode: '2775', owner: uid, group: gid }));
    t.deepEqual(change.fields, ['owner', 'group']);
    t.is(rest.action, 'noop');
    t.is(modeOf(path), '2775');
    t.true(h.scripts.some((s) => s.includes(`chown ${uid}:${gid} `) && !s.includes('chgrp')));
  });
}
