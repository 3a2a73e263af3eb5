import test from 'ava';
import { execFileSync } from 'node:child_process';
import { ps, quotePs, raw, sh } from '../../runner/core/quote.js';
import { Secret } from '../../runner/core/secret.js';

const hostile = [
  `x'; touch /tmp/pwned; echo '`,
  '$(reboot)',
  '`id`',
  'a b\tc\nd',
  "it's",
  '',
  '-n',
  '*',
  '"double" $HOME ${PATH} \\ \\\\',
  '‘curly’ ‚low‛',
  'ünïcødé ✓',
];

test('sh: every hostile value reaches the shell as literal text', (t) => {
  for (const v of hostile) {
    const script = sh`printf '%s' ${v}`;
    const out = execFileSync('/bin/sh', ['-c', script.text], { encoding: 'utf8' });
    t.is(out, v, `value ${JSON.stringify(v)} via ${script.text}`);
  }
});

test('sh: arrays become separate words, scripts compose, raw is trusted text', (t) => {
  const inner = sh`printf '<%s>' ${['a b', "c'd"]}`;
  const out = execFileSync('/bin/sh', ['-c', sh`${inner}; ${raw('printf x')}`.text], { encoding: 'utf8' });
  t.is(out, "<a b><c'd>x");
});

test('sh and ps refuse secrets, NUL bytes, null and mixing shells', (t) => {
  const secret = new Secret('hunter2', 'env:PW');
  t.throws(() => sh`echo ${secret as never}`, { message: /secret cannot be placed on a command line/ });
  t.throws(() => ps`echo ${secret as never}`, { message: /secret/ });
  t.throws(() => sh`echo ${'a\0b'}`, { message: /NUL/ });
  t.throws(() => sh`echo ${null as never}`, { message: /null/ });
  t.throws(() => ps`${sh`ls`}`, { message: /cannot embed a sh script in a ps script/ });
});

// PowerShell is not on these machines: decode with the language's rule for single-quoted strings
// (a quote character, straight or typographic, is escaped by doubling it) and check the round trip.
function decodePsSingleQuoted(text: string): string {
  const q = /['\u2018\u2019\u201a\u201b]/;
  if (!q.test(text[0]!) || !q.test(text[text.length - 1]!)) throw new Error(`not single-quoted: ${text}`);
  let out = '';
  for (let i = 1; i < text.length - 1; i++) {
    const c = text[i]!;
    if (q.test(c)) {
      if (text[i + 1] !== c) throw new Error(`unescaped quote at ${i} in ${text}`);
      i++;
    }
    out += c;
  }
  return out;
}

test('ps: hostile values are single-quoted literals with every quote character doubled', (t) => {
  for (const v of hostile) t.is(decodePsSingleQuoted(quotePs(v)), v);
  t.is(
    ps`Set-Content -Path ${"C:\\k\\a'b"} -Value ${'$(Stop-Computer)'}`.text,
    "Set-Content -Path 'C:\\k\\a''b' -Value '$(Stop-Computer)'",
  );
  t.is(ps`Enable ${true} ${[1, 'a']}`.text, "Enable $true 1,'a'");
});
