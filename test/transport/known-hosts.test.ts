import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import {
  appendHost,
  fingerprint,
  hostKeyName,
  keyTypeOf,
  knownKeyTypes,
  lookup,
  parseKnownHosts,
  readKnownHosts,
  type LookupStatus,
} from '../../runner/transport/known-hosts.js';
import { blobOf, generateKey, tempDir } from './helpers/ssh-server.js';

const A = generateKey().public; // the host's key
const B = generateKey().public; // another key
const a = blobOf(A);
const b = blobOf(B);

const FILE = [
  '# comment line',
  '',
  `198.18.0.101 ${A}`, // 3
  `linux2,198.18.0.102 ${A} a comment`, // 4
  `[198.18.0.103]:2222 ${A}`, // 5
  `198.18.0.1?4,!198.18.0.114 ${A}`, // 6
  `@revoked * ${B}`, // 7
  `@cert-authority *.lab ${B}`, // 8
  `198.18.0.105 ssh-ed25519 not-base64!`, // 9
  `   # indented comment`,
  `198.18.0.106 ssh-rsa ${A.split(' ')[1]}`, // 11: type does not match the blob
  `198.18.0.107`, // 12: too few fields
].join('\n');

const known = parseKnownHosts(FILE, '/kh');

const table: [string, string, number, Buffer, LookupStatus, number | undefined][] = [
  ['plain host', '198.18.0.101', 22, a, 'match', 3],
  ['second name of a list', '198.18.0.102', 22, a, 'match', 4],
  ['first name of a list', 'linux2', 22, a, 'match', 4],
  ['names are case-insensitive', 'LINUX2', 22, a, 'match', 4],
  ['[host]:port', '198.18.0.103', 2222, a, 'match', 5],
  ['a plain entry does not cover another port', '198.18.0.101', 2222, a, 'unknown', undefined],
  ['[host]:port does not cover port 22', '198.18.0.103', 22, a, 'unknown', undefined],
  ['wildcard', '198.18.0.124', 22, a, 'match', 6],
  ['negated pattern vetoes the line', '198.18.0.114', 22, a, 'unknown', undefined],
  ['unknown host', '198.18.0.200', 22, a, 'unknown', undefined],
  ['a key marked @revoked for every host', '198.18.0.101', 22, b, 'revoked', 7],
];

for (const [title, address, port, blob, status, line] of table) {
  test(`lookup: ${title}`, (t) => {
    const r = lookup(known, address, port, keyTypeOf(blob), blob);
    t.is(r.status, status);
    t.is(r.line, line);
  });
}

test('lookup: a host with entries that do not hold the offered key is changed, with the old line', (t) => {
  const c = generateKey().public;
  const r = lookup(known, '198.18.0.102', 22, 'ssh-ed25519', blobOf(c));
  t.deepEqual(r, { status: 'changed', line: 4, knownFingerprint: fingerprint(a), knownKeyType: 'ssh-ed25519' });
});

test('parse: comments, blank lines and markers; malformed lines skipped with their line numbers', (t) => {
  t.deepEqual(
    known.entries.map((e) => [e.line, e.marker]),
    [
      [3, null],
      [4, null],
      [5, null],
      [6, null],
      [7, 'revoked'],
      [8, 'cert-authority'],
    ],
  );
  t.deepEqual(
    known.skipped.map((s) => s.line),
    [9, 11, 12],
  );
  t.regex(known.skipped[1]!.reason, /not of type ssh-rsa/);
});

test('@cert-authority lines are ignored: a host they cover is unknown', (t) => {
  const r = lookup(known, 'node1.lab', 22, 'ssh-ed25519', b);
  t.is(r.status, 'revoked'); // the @revoked * line still applies
  t.is(lookup(known, 'node1.lab', 22, 'ssh-ed25519', a).status, 'unknown');
});

test('knownKeyTypes lists the types recorded for a host', (t) => {
  t.deepEqual(knownKeyTypes(known, '198.18.0.101', 22), ['ssh-ed25519']);
  t.deepEqual(knownKeyTypes(known, '198.18.0.200', 22), []);
});

test('hashed entries written by ssh-keygen -H match, on port 22 and [host]:port', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const file = join(dir, 'known_hosts');
  writeFileSync(file, `198.18.0.101 ${A}\n[198.18.0.103]:2222 ${A}\n`);
  execFileSync('ssh-keygen', ['-H', '-f', file], { stdio: 'ignore' });
  const text = readFileSync(file, 'utf8');
  t.notRegex(text, /198\.18/);
  t.regex(text, /^\|1\|[A-Za-z0-9+/=]+\|[A-Za-z0-9+/=]+ ssh-ed25519 /m);
  const k = readKnownHosts(file);
  t.is(lookup(k, '198.18.0.101', 22, 'ssh-ed25519', a).status, 'match');
  t.is(lookup(k, '198.18.0.103', 2222, 'ssh-ed25519', a).status, 'match');
  t.is(lookup(k, '198.18.0.103', 22, 'ssh-ed25519', a).status, 'unknown');
  t.is(lookup(k, '198.18.0.101', 22, 'ssh-ed25519', b).status, 'changed');
});

test('fingerprint agrees with ssh-keygen -lf', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const pub = join(dir, 'host.pub');
  writeFileSync(pub, `${A} host\n`);
  const out = execFileSync('ssh-keygen', ['-lf', pub], { encoding: 'utf8' });
  t.is(out.split(' ')[1], fingerprint(a));
  t.notRegex(fingerprint(a), /=$/);
});

test('keyTypeOf reads the first SSH string of the blob and refuses garbage', (t) => {
  t.is(keyTypeOf(a), 'ssh-ed25519');
  t.throws(() => keyTypeOf(Buffer.from([0, 0])));
  t.throws(() => keyTypeOf(Buffer.from([0, 0, 1, 0, 65])));
});

test('appendHost creates the directory (0700) and file (0600), and ssh-keygen -F finds the entry', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const file = join(dir, 'sub', 'known_hosts');
  appendHost(file, '127.0.0.1', 2222, 'ssh-ed25519', a);
  appendHost(file, '198.18.0.101', 22, 'ssh-ed25519', a);
  t.is(statSync(join(dir, 'sub')).mode & 0o777, 0o700);
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(readFileSync(file, 'utf8'), `[127.0.0.1]:2222 ${A}\n198.18.0.101 ${A}\n`);
  const found = execFileSync('ssh-keygen', ['-F', '[127.0.0.1]:2222', '-f', file], { encoding: 'utf8' });
  t.regex(found, /\[127\.0\.0\.1\]:2222 ssh-ed25519/);
  t.is(lookup(file, '127.0.0.1', 2222, 'ssh-ed25519', a).status, 'match');
});

test('appendHost starts a new line when the file does not end with one', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const file = join(dir, 'known_hosts');
  writeFileSync(file, `198.18.0.101 ${A}`);
  appendHost(file, '198.18.0.102', 22, 'ssh-ed25519', b);
  t.is(readFileSync(file, 'utf8'), `198.18.0.101 ${A}\n198.18.0.102 ${B}\n`);
});

test('a missing known_hosts file is empty, and hostKeyName brackets non-22 ports', (t) => {
  t.deepEqual(readKnownHosts('/nonexistent/known_hosts').entries, []);
  t.is(hostKeyName('198.18.0.101', 22), '198.18.0.101');
  t.is(hostKeyName('198.18.0.101', 2222), '[198.18.0.101]:2222');
});

test('a known_hosts file is parsed once while it is unchanged; a key appended or an edit by hand is seen at once', (t) => {
  const { dir, cleanup } = tempDir();
  t.teardown(cleanup);
  const file = join(dir, 'known_hosts');
  writeFileSync(file, `198.18.0.101 ${A}\n`);
  const first = readKnownHosts(file);
  t.is(readKnownHosts(file), first, 'the same parse, not a new one');
  appendHost(file, '198.18.0.102', 22, 'ssh-ed25519', b);
  t.is(lookup(readKnownHosts(file), '198.18.0.102', 22, 'ssh-ed25519', b).status, 'match');
  // Another program rewrites the file (another length): the change is seen.
  writeFileSync(file, `198.18.0.101 ${A}\n198.18.0.101 ssh-ed25519 ${b.toString('base64')}\n`);
  t.deepEqual(
    readKnownHosts(file).entries.map((e) => e.hosts),
    ['198.18.0.101', '198.18.0.101'],
  );
});

test('lookup: entries named outright and entries matched by pattern or hash keep their file order', (t) => {
  const tmp = tempDir();
  t.teardown(tmp.cleanup);
  const plainFile = join(tmp.dir, 'known_hosts');
  writeFileSync(plainFile, `198.18.0.50 ${A}\n`);
  execFileSync('ssh-keygen', ['-H', '-f', plainFile], { stdio: 'ignore' }); // OpenSSH hashes the name
  const hashed = readFileSync(plainFile, 'utf8');
  const file = [`198.18.0.5? ${B}`, `198.18.0.50,linux50 ${B}`, hashed.split('\n').find((l) => l.startsWith('|1|'))!];
  const k = parseKnownHosts(file.join('\n'), '/kh2');
  const c = blobOf(generateKey().public);
  t.like(lookup(k, '198.18.0.50', 22, 'ssh-ed25519', c), { status: 'changed', line: 1 });
  t.like(lookup(k, '198.18.0.50', 22, 'ssh-ed25519', a), { status: 'match', line: 3 });
  t.like(lookup(k, 'LINUX50', 22, 'ssh-ed25519', b), { status: 'match', line: 2 });
  t.like(lookup(k, '198.18.0.51', 22, 'ssh-ed25519', b), { status: 'match', line: 1 });
});
