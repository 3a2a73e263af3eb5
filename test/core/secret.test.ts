import test from 'ava';
import { inspect } from 'node:util';
import { escapedForms, MASK, MIN_SECRET_LENGTH, Secret, masked, redact } from '../../runner/core/secret.js';

test('a secret is masked when printed, serialized or inspected', (t) => {
  const s = new Secret('p@ss-w0rd', 'env:ADMIN_PW');
  t.is(String(s), MASK);
  t.is(`${s}`, MASK);
  t.is(JSON.stringify({ s }), `{"s":"${MASK}"}`);
  t.false(inspect({ s }).includes('p@ss-w0rd'));
  t.is(s.reveal(), 'p@ss-w0rd');
});

test('redact scrubs revealed values from foreign text; masked walks objects', (t) => {
  const s = new Secret('correct-horse', 'env:X');
  t.is(redact('error: correct-horse rejected'), 'error: correct-horse rejected'); // not revealed yet
  s.reveal();
  t.is(redact('error: correct-horse rejected'), `error: ${MASK} rejected`);
  t.deepEqual(masked({ a: [s, 'x correct-horse'], b: 1, c: null }), { a: [MASK, `x ${MASK}`], b: 1, c: null });
});

test('escapedForms: the value as it reads inside JSON and inside PowerShell string literals', (t) => {
  t.deepEqual(escapedForms('plain-value'), ['plain-value']);
  t.deepEqual(escapedForms(`it's "a" \\ $x\`\nz`), [
    `it's "a" \\ $x\`\nz`,
    `it's \\"a\\" \\\\ $x\`\\nz`,
    `it\\u0027s \\"a\\" \\\\ $x\`\\nz`,
    `it''s "a" \\ $x\`\nz`,
    `it's \`"a\`" \\ \`$x\`\`\nz`,
    `it's \`"a\`" \\ \`$x\`\`\`nz`,
  ]);
  t.deepEqual(escapedForms('a<b>&c'), ['a<b>&c', 'a\\u003cb\\u003e\\u0026c']);
  t.deepEqual(escapedForms('ty\u2019po'), ['ty\u2019po', 'ty\u2019\u2019po']);
});

test('redact masks a revealed value in its escaped forms too: JSON text, PowerShell literals and messages', (t) => {
  const value = `pa"ss\\w'o$rd\`\n2`;
  new Secret(value, 'env:ESCAPED').reveal();
  const texts = {
    json: JSON.stringify({ error: `bad ${value}` }),
    nodeJsonOfPs51: `{"error":"bad ${JSON.stringify(value).slice(1, -1).replace("'", '\\u0027')}"}`,
    psSingleQuoted: `Set-Thing -Password '${value.replace(/'/g, "''")}'`,
    psDoubleQuoted: `Set-Thing -Password "${value.replace(/[`"$]/g, (c) => `\`${c}`).replace('\n', '`n')}"`,
    clear: `at line 1: ${value} was refused`,
  };
  const redacted = Object.fromEntries(Object.entries(texts).map(([k, v]) => [k, redact(v)]));
  t.deepEqual(redacted, {
    json: `{"error":"bad ${MASK}"}`,
    nodeJsonOfPs51: `{"error":"bad ${MASK}"}`,
    psSingleQuoted: `Set-Thing -Password '${MASK}'`,
    psDoubleQuoted: `Set-Thing -Password "${MASK}"`,
    clear: `at line 1: ${MASK} was refused`,
  });
});

test('a value shorter than MIN_SECRET_LENGTH is not remembered (so it is refused where secrets are read)', (t) => {
  t.is(MIN_SECRET_LENGTH, 4);
  new Secret('abc', 'env:SHORT').reveal();
  t.is(redact('abc and abcd'), 'abc and abcd');
});
