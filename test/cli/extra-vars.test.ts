// -e as ansible-playbook reads it, compared whole with ansible-core itself (the oracle: without it these
// tests fail, never skip): each case's -e list goes through ansible's load_extra_vars (what
// ansible-playbook calls, with its DataLoader) and through play's parseExtraVars, and the variables must
// be the same. The cases, documented:
// - key=value text split as ansible's split_args splits it: on spaces and newlines, not inside quotes
//   or {{ }} / {% %} / {# #}; a value's one pair of surrounding quotes removed; Python escapes decoded;
//   the first unescaped `=` cuts; a later key of the same text wins; every value a string;
// - @FILE: YAML or JSON (typed values), plain, vault-encrypted or with !vault values;
// - several -e: a later one replaces an earlier one's keys (not merged deeply).
// Where ansible would set `_raw_params` (a word without `=`), play refuses the -e instead: a value with
// a space was meant, and quoting it is the fix.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../runner/core/errors.js';
import { Secret } from '../../runner/core/secret.js';
import { parseExtraVars } from '../../runner/cli/extra-vars.js';
import { openVault } from '../../runner/vault/passwords.js';
import { ansiblePython, encryptFile, encryptStrings, oracleCwd, vaultYaml } from '../inventory/ansible-oracle.js';

const dir = mkdtempSync(join(tmpdir(), 'play-extra-vars-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const PASS = write('pass', 'pw-extra\n');

/** Each case: the -e values, in order. */
const KEY_VALUE: Record<string, string[]> = {
  'two pairs': ['a=1 b=2'],
  'single quotes keep a space': ["a='x y'"],
  'double quotes, then another pair': ['a="x y" b=c'],
  'quotes inside a value are kept': ["a=x'y z'"],
  'an escaped quote inside quotes': ['a="say \\"hi\\""'],
  'escapes: newline, tab, backslash, hex, unicode': ['a="l1\\nl2\\tx\\\\y" b=\\x41\\u00e9'],
  'the first = cuts': ['a=b=c'],
  'a later key of the same -e wins': ['a=1 a=2'],
  'runs of spaces, a leading space': [' a=1   b=2'],
  'a newline between pairs': ['a=1\nb=2'],
  'an empty value': ['a= b=""'],
  'a Jinja2 expression with spaces is one value': ["a={{ x | default('y z') }} b=2"],
  'a {# #} comment with spaces is one value': ['a={# a note #}b'],
  'non-ASCII text': ['name=ünïcødé✓ other="ß ✓"'],
  'several -e: later keys replace earlier ones': ['a=1 b=1', 'b=2 c=2', 'c=3'],
  'JSON, and key=value after it': ['{"a": {"n": 1}, "b": [1, 2]}', 'a=replaced'],
  'an empty -e is nothing': ['', 'a=1'],
};

/** ansible-core's load_extra_vars on each case (its DataLoader given `vaultPassword`, if any). */
function ansibleExtraVars(cases: string[][], vaultPassword?: string): unknown[] {
  return ansiblePython<unknown[]>(
    `
from ansible import context
from ansible.module_utils.common.collections import ImmutableDict
from ansible.parsing.dataloader import DataLoader
from ansible.parsing.vault import VaultSecret
from ansible.utils.vars import load_extra_vars
result = []
for items in data['cases']:
    context.CLIARGS = ImmutableDict(extra_vars=tuple(items))
    loader = DataLoader()
    if data['password']:
        loader.set_vault_secrets([('default', VaultSecret(data['password'].encode()))])
    result.append(load_extra_vars(loader))
# !vault values as their decrypted text, as a template renders them.
from ansible.parsing.ajson import AnsibleJSONEncoder
result = json.loads(json.dumps(result, cls=AnsibleJSONEncoder, vault_to_text=True))
`,
    { cases, password: vaultPassword ?? null },
  );
}

/** Secrets as their clear text, so that they compare with what ansible decrypted. */
function reveal(v: unknown): unknown {
  if (v instanceof Secret) return v.reveal();
  if (Array.isArray(v)) return v.map(reveal);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, reveal(x)]));
  return v;
}

test('key=value text, JSON and several -e: the same variables as ansible-playbook', (t) => {
  const titles = Object.keys(KEY_VALUE);
  const expected = ansibleExtraVars(Object.values(KEY_VALUE));
  for (const [i, title] of titles.entries()) t.deepEqual(parseExtraVars(KEY_VALUE[title]!, {}), expected[i], title);
});

test('@FILE: YAML, JSON, vault-encrypted, with !vault values, in order with the other forms', async (t) => {
  const yaml = write('vars.yml', 'a: 1\nlist: [x, y]\nnested: {k: v}\nflag: yes\n');
  const json = write('vars.json', '{"a": 2, "b": "from json"}');
  const whole = write('vault.yml', 'api_token: token-from-vault\nregion: eu-west\nport: 8443\n');
  encryptFile(whole, PASS);
  const { db_password } = encryptStrings({ db_password: 'db-pass-inline' }, PASS);
  const inline = write('inline.yml', `db_password: ${vaultYaml(db_password!, 2)}user: app\n`);
  const cases = [
    [`@${yaml}`],
    [`@${yaml}`, `@${json}`],
    [`@${whole}`, `@${inline}`],
    ['a=0 b=0', `@${json}`, 'b=last'],
  ];
  const expected = ansibleExtraVars(cases, 'pw-extra');
  const vault = await openVault({ passwordFiles: [PASS] }, {});
  for (const [i, items] of cases.entries())
    t.deepEqual(reveal(parseExtraVars(items, {}, vault)), expected[i], items.join(' '));
  const fromVault = parseExtraVars([`@${whole}`, `@${inline}`], {}, vault);
  t.true(fromVault.api_token instanceof Secret && fromVault.db_password instanceof Secret, 'a vault value is a Secret');
  t.true(fromVault.region instanceof Secret, 'every text of a vault-encrypted file is');
  t.is(fromVault.port, 8443);
});

test('one real ansible-playbook run reads the same -e as play', (t) => {
  const file = write('pb-vars.yml', 'a: 1\nb: {c: d}\n');
  const items = [`@${file}`, 's=\'x y\' t="q \\"r\\""', '{"b": {"e": 5}}', 'u={{ 1 + 1 }}'];
  const playbook = write(
    'pb.yml',
    "- hosts: all\n  gather_facts: false\n  tasks:\n    - debug:\n        msg: \"{{ {'a': a, 'b': b, 's': s, 't': t} | to_json }}\"\n",
  );
  const r = spawnSync(
    'ansible-playbook',
    ['-i', 'localhost,', '-c', 'local', playbook, ...items.flatMap((i) => ['-e', i])],
    {
      cwd: oracleCwd,
      encoding: 'utf8',
      env: { ...process.env, ANSIBLE_CONFIG: join(oracleCwd, 'ansible.cfg'), ANSIBLE_NOCOLOR: '1' },
    },
  );
  t.is(r.status, 0, r.stderr + r.stdout);
  const msg = /"msg": "(.*)"\n/.exec(r.stdout)?.[1];
  t.truthy(msg, r.stdout);
  const { u: _, ...play } = parseExtraVars(items, {});
  t.deepEqual(play, JSON.parse(JSON.parse(`"${msg}"`)));
  t.is(_, '{{ 1 + 1 }}', 'kept as written: play does not render templates');
});

test('refused where ansible would guess: a word without =, a file without @, a list', (t) => {
  const rows: [string[], string][] = [
    [
      ['dir=/srv/x y'],
      "-e y: expected key=value (or @FILE, or a JSON object); a value with spaces is quoted: key='a b'",
    ],
    [['./vars.yml'], '-e ./vars.yml: a file of variables is given as -e @./vars.yml'],
    [['[1, 2]'], '-e [1, 2]: a list is not a set of variables: write {"key": ...}'],
    [["a='open"], "-e a='open: unbalanced quotes or {{ }} blocks: cannot split it into key=value"],
    // Spaces between {% %} tags split the text, for ansible too (which sets _raw_params to the rest).
    [
      ['a={% if x %}y z{% endif %}'],
      "-e z{% endif %}: expected key=value (or @FILE, or a JSON object); a value with spaces is quoted: key='a b'",
    ],
    [['1a=x'], "-e 1a=...: '1a' is not a valid variable name"],
    [[`@${join(dir, 'nope.yml')}`], `-e @${join(dir, 'nope.yml')}: no such file`],
  ];
  for (const [items, message] of rows) {
    const e = t.throws(() => parseExtraVars(items, {}), { instanceOf: UsageError });
    t.is(e.message, message);
  }
});
