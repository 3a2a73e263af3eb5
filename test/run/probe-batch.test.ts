import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { sh, sharesShell } from '../../runner/core/quote.js';
import { batchScript, splitBatch } from '../../runner/run/probe-batch.js';

function runLocal(text: string) {
  const r = spawnSync('/bin/sh', ['-c', text], { encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

test('a batch returns each probe its exact stdout and exit code, in one run', (t) => {
  const probes = [
    sh`printf 'a\\nb'`, // no trailing newline
    sh`printf ''`, // empty
    sh`printf 'x\\n\\n'; exit 3`, // exit ends only its own subshell
    sh`cat`, // reads stdin: gets /dev/null, not the next probe
    sh`printf '%s\\n' '@@fake@@0@@begin'`, // content that looks like a marker
  ];
  const nonce = 'n0nce';
  const parts = splitBatch(runLocal(batchScript(probes, nonce).text), nonce, probes.length);
  t.deepEqual(
    parts.map((p) => [p.stdout, p.code]),
    [
      ['a\nb', 0],
      ['', 0],
      ['x\n\n', 3],
      ['', 0],
      ['@@fake@@0@@begin\n', 0],
    ],
  );
});

test('a probe that shares the batch shell runs without a fork of its own, with its own status and stdin', (t) => {
  const probes = [
    sharesShell(sh`play_x=1; printf 'a\\n'; false`),
    sharesShell(sh`cat; printf '%s\\n' "$play_x"`), // stdin is /dev/null; the shell, and so play_x, is shared
    sh`printf '%s\\n' "$play_x"; play_x=2; exit 4`, // its own subshell: inherits, and changes nothing after it
    sharesShell(sh`printf '%s\\n' "$play_x"`),
  ];
  const nonce = 'n0nce';
  const text = batchScript(probes, nonce).text;
  t.is(text.split('\n').filter((l) => l.startsWith('( ')).length, 1, 'one subshell: the probe that does not share');
  t.deepEqual(
    splitBatch(runLocal(text), nonce, probes.length).map((p) => [p.stdout, p.code]),
    [
      ['a\n', 1],
      ['1\n', 0],
      ['1\n', 4],
      ['1\n', 0],
    ],
  );
});

test('a batch cut short says which probe has no result', (t) => {
  const nonce = 'abc';
  const full = execFileSync('/bin/sh', ['-c', batchScript([sh`echo 1`, sh`echo 2`], nonce).text], { encoding: 'utf8' });
  const cut = full.slice(0, full.indexOf('@@abc@@1@@begin'));
  t.throws(() => splitBatch({ stdout: cut, stderr: 'Connection closed', code: null }, nonce, 2), {
    message: /probe 2 of 2 returned no result.*signal.*Connection closed/,
  });
});
