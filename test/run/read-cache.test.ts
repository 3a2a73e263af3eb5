// The read cache of a kept connection (read-cache.ts, content-read.ts): what it expands and keeps,
// and what steps expect files to hold, as tables; then the bench playbook's probes through a host
// session on the local /bin/sh, under strace: what a step expects, and a second probe of unchanged
// files, is confirmed by one sha256sum and parses to the same state; a file changed is read anew.
import test, { type ExecutionContext } from 'ava';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { base64Lines, pathKey } from '../../runner/core/content-read.js';
import { Script } from '../../runner/core/quote.js';
import type { ExecResult, Probe, ShellProbe } from '../../runner/core/step.js';
import type { Host } from '../../runner/inventory/model.js';
import { HostSession, type ProbeOutcome, type ShellConnection } from '../../runner/run/host-session.js';
import { ReadCache } from '../../runner/run/read-cache.js';
import { benchSteps, convergeBenchFiles } from '../tasks/linux/bench-steps.js';

const base = mkdtempSync(join(tmpdir(), 'play-read-cache-'));
test.after.always('remove the temp directory', () => rmSync(base, { recursive: true, force: true }));

const N = 'f00dfeedf00dfeedf0';
/** What `base64` prints for `s`: nothing for nothing. */
const b64 = (s: string) => (s === '' ? '' : `${Buffer.from(s).toString('base64')}\n`);
const read = (path: string, base64: string, status = 0) =>
  `@@${N}@@read ${pathKey(path)}\n${base64}\n@@${N}@@done ${pathKey(path)} ${status}\n`;
const hit = (path: string) => `@@${N}@@hit ${pathKey(path)}\n`;
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

test('a read is kept under the digest of what it decodes to, and a later hit is put back byte for byte', (t) => {
  const cache = new ReadCache();
  const first = cache.batch(['/a', '/b'], N);
  t.false(first.prelude.includes('sha256sum'), 'nothing known yet: no digest to compare');
  t.is(first.expand(`x\n${read('/a', b64('alpha\n'))}y\n${read('/b', b64(''))}`), `x\n${b64('alpha\n')}y\n`);
  t.deepEqual(cache.size, { files: 2, bytes: b64('alpha\n').length });
  const second = cache.batch(['/a', '/b', '/c'], N);
  t.true(second.prelude.includes(`play_known_${pathKey('/a')}=${sha('alpha\n')}`));
  t.true(second.prelude.includes(`play_known_${pathKey('/b')}=${sha('')}`));
  t.false(second.prelude.includes(`play_known_${pathKey('/c')}`));
  t.is(second.expand(`x\n${hit('/a')}y\n${hit('/b')}z\n`), `x\n${b64('alpha\n')}y\nz\n`);
});

test('what is not the exact base64 of some bytes, a failed read, or a read past the limits is not kept', (t) => {
  const rows: [string, string][] = [
    ['a failed read', read('/a', '', 1)],
    ['not base64', read('/a', 'not base64!\n')],
    ['base64 a decoder would bend', read('/a', 'YWJj=\n')],
    ['past the file limit', read('/a', b64('x'.repeat(100)))],
  ];
  t.deepEqual(
    rows.map(([, out]) => {
      const cache = new ReadCache({ hostBytes: 1000, fileBytes: 64 });
      cache.batch(['/a'], N).expand(out);
      return cache.size.files;
    }),
    rows.map(() => 0),
  );
});

test('the oldest reads go first past the host limit; a changed file replaces its old read', (t) => {
  const cache = new ReadCache({ hostBytes: 20, fileBytes: 20 });
  cache.batch(['/a', '/b'], N).expand(read('/a', b64('0123456')) + read('/b', b64('abcdefg')));
  t.deepEqual(cache.size, { files: 1, bytes: 13 });
  t.false(cache.batch(['/a'], N).prelude.includes('play_known_'));
  cache.batch(['/b'], N).expand(read('/b', b64('xy')));
  t.deepEqual(cache.size, { files: 1, bytes: 5 });
  t.true(cache.batch(['/b'], N).prelude.includes(sha('xy')));
});

test('a batch expands from the reads it named, not from one another batch kept meanwhile', (t) => {
  const cache = new ReadCache();
  cache.batch(['/a'], N).expand(read('/a', b64('old')));
  const earlier = cache.batch(['/a'], N);
  cache.batch(['/a'], N).expand(read('/a', b64('new')));
  t.is(earlier.expand(hit('/a')), b64('old'));
  t.throws(() => cache.batch([], N).expand(hit('/a')), { message: /a digest this batch did not send/ });
});

test('a read cut short is left as it came, for the batch split to report', (t) => {
  const cache = new ReadCache();
  const cut = `@@${N}@@read ${pathKey('/a')}\nYWJj`;
  t.is(cache.batch(['/a'], N).expand(`x\n${cut}`), `x\n${cut}`);
  t.is(cache.size.files, 0);
});

test('what a step expects is confirmed by digest like a kept read, and what the cache kept wins', (t) => {
  const cache = new ReadCache();
  cache.batch(['/kept'], N).expand(read('/kept', b64('read before\n')));
  const expected = new Map([
    ['/a', 'alpha\n'],
    ['/kept', 'a guess\n'],
    ['/not-read', 'x'],
  ]);
  const batch = cache.batch(['/a', '/kept', '/b'], N, expected);
  t.true(batch.prelude.includes(`play_known_${pathKey('/a')}=${sha('alpha\n')}`));
  t.true(batch.prelude.includes(`play_known_${pathKey('/kept')}=${sha('read before\n')}`));
  t.false(batch.prelude.includes('/not-read'), 'a path no probe reads is not hashed');
  t.is(
    batch.expand(`${hit('/a')}${hit('/kept')}${read('/b', b64('b'))}`),
    `${b64('alpha\n')}${b64('read before\n')}${b64('b')}`,
  );
  t.deepEqual(cache.size, { files: 2, bytes: b64('read before\n').length + b64('b').length }, 'a guess is not kept');
});

test("base64Lines is coreutils base64's output, wrapped at 76", (t) => {
  const sizes = [0, 1, 2, 3, 56, 57, 58, 114, 200];
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 37) % 256));
  t.deepEqual(
    sizes.map((n) => base64Lines(bytes(n))),
    sizes.map((n) => execFileSync('base64', { input: bytes(n), encoding: 'utf8' })),
  );
});

// --- the bench's probes on the local /bin/sh -------------------------------------------------

/** A host session on the local /bin/sh, under strace when `log` is given, with `reads` (a kept connection's). */
function localSession(reads: ReadCache | undefined, log: () => string | null): HostSession {
  const run = (script: string): Promise<ExecResult> => {
    const l = log();
    // -v: each program's environment too.
    const argv = l ? ['strace', '-f', '-qq', '-v', '-e', 'trace=execve', '-e', 'signal=none', '-o', l] : [];
    argv.push('/bin/sh', '-c', script);
    return new Promise((done, fail) => {
      const child = spawn(argv[0]!, argv.slice(1));
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', fail);
      child.on('close', (code) => done({ stdout, stderr, code }));
      child.stdin.end();
    });
  };
  const connection: ShellConnection = reads ? { exec: run, reads } : { exec: run };
  const host = { name: 'local', connection: { os: 'linux' } } as unknown as Host;
  return new HostSession(host, async () => connection);
}

let logs = 0;

interface BenchHost {
  readonly root: string;
  readonly steps: ReturnType<typeof benchSteps>;
  readonly session: HostSession;
  /** Runs `f`, with the programs the host ran meanwhile (under strace; the shells that run the batch left
   *  out), and the locale variables each was given. */
  counting<T>(f: () => Promise<T>): Promise<{ result: T; programs: string[]; locales: string[] }>;
}

/** The bench's files converged in a directory of their own, and a session on them, with `reads` (a kept connection's). */
function benchHost(t: ExecutionContext, name: string, reads?: ReadCache): BenchHost {
  t.is(spawnSync('strace', ['-V']).status, 0, 'strace is needed to count the programs a probe runs');
  const root = join(base, name);
  convergeBenchFiles(root);
  let log: string | null = null;
  const session = localSession(reads, () => log);
  return {
    root,
    steps: benchSteps(root),
    session,
    async counting(f) {
      const file = join(base, `execve-${++logs}.log`);
      log = file;
      let result: Awaited<ReturnType<typeof f>>;
      try {
        result = await f();
      } finally {
        log = null;
      }
      const calls = readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.includes('execve("'));
      const programs = calls.map((l) => basename(/execve\("([^"]+)"/.exec(l)![1]!));
      const locales = calls.map((l) => [...l.matchAll(/"((?:LANG|LC_[A-Z]+)=[^"]*)"/g)].map((m) => m[1]).join(' '));
      // strace starts the connection's /bin/sh, which starts the session's own /bin/sh -c (the batch).
      return { result, programs: programs.slice(2), locales: locales.slice(2) };
    },
  };
}

const actualOf = (outcomes: readonly ProbeOutcome[]) => outcomes.map((o) => (o.ok ? o.actual : o.error.message));

/** Probes the host's bench steps (`probes`: plain or as the steps make them), with the programs it ran. */
async function probeCounting(h: BenchHost, probes: Probe<unknown>[]) {
  const { result, programs } = await h.counting(() => h.session.probe(probes));
  return { actual: actualOf(result), programs };
}

/** The probes with nothing expected: a plain read of every file, what an expectation must not change. */
const plainProbes = (steps: ReturnType<typeof benchSteps>) =>
  steps.map((s) => ({ ...(s.probe() as Probe<unknown>), expect: undefined }) as Probe<unknown>);

const stepProbes = (steps: ReturnType<typeof benchSteps>) => steps.map((s) => s.probe() as ShellProbe<unknown>);

test('the bench probes without a kept connection: what the steps expect is confirmed by one sha256sum', async (t) => {
  const h = benchHost(t, 'expected');
  const { root, steps } = h;
  const plain = await probeCounting(h, plainProbes(steps));
  t.deepEqual(plain.programs, ['stat', 'base64', 'base64', 'base64', 'base64']);
  // The file, the sysctl's value and its file are expected; the line's file is not (its other lines).
  const converged = await probeCounting(h, stepProbes(steps));
  t.deepEqual(converged.programs, ['stat', 'sha256sum', 'base64']);
  t.deepEqual(converged.actual, plain.actual);
  writeFileSync(join(root, 'app.conf'), 'edited by hand\n');
  const edited = await probeCounting(h, stepProbes(steps));
  t.deepEqual(edited.programs, ['stat', 'sha256sum', 'base64', 'base64']);
  t.deepEqual(edited.actual, (await probeCounting(h, plainProbes(steps))).actual);
  t.is(steps[1]!.diff(steps[1]!.desired as never, edited.actual[1] as never).action, 'update');
});

test("the probe's programs run in the C locale whatever the host's is: a UTF-8 one costs each program its loading", async (t) => {
  const h = benchHost(t, 'locale');
  const saved = process.env.LANG;
  process.env.LANG = 'C.UTF-8';
  try {
    const plain = await h.counting(() => h.session.probe(plainProbes(h.steps)));
    const converged = await h.counting(() => h.session.probe(stepProbes(h.steps)));
    t.deepEqual(
      [...plain.programs, ...converged.programs].map((p, i) => [p, [...plain.locales, ...converged.locales][i]]),
      ['stat', 'base64', 'base64', 'base64', 'base64', 'stat', 'sha256sum', 'base64'].map((p) => [
        p,
        'LANG=C.UTF-8 LC_ALL=C',
      ]),
    );
  } finally {
    if (saved === undefined) delete process.env.LANG;
    else process.env.LANG = saved;
  }
});

test('the probes an apply carries are confirmed by digest too, and parse as a plain probe does', async (t) => {
  const h = benchHost(t, 'carried');
  const apply = {
    script: new Script('sh', `printf '%s' '# managed by play\nhost=local\n' > ${h.root}/app.conf`),
    stdin: null,
  };
  const carried = await h.counting(() => h.session.runAllThenProbe([apply], stepProbes(h.steps)));
  t.deepEqual(carried.programs, ['stat', 'sha256sum', 'base64']);
  t.deepEqual(actualOf(carried.result.outcomes!), actualOf(await h.session.probe(plainProbes(h.steps))));
});

test('the bench probes: a second probe of unchanged files runs one stat and one sha256sum, and parses the same', async (t) => {
  const reads = new ReadCache();
  const h = benchHost(t, 'srv', reads);
  const { root, steps } = h;
  const probeCountingKept = () => probeCounting(h, plainProbes(steps));

  const first = await probeCountingKept();
  t.deepEqual(first.programs, ['stat', 'base64', 'base64', 'base64', 'base64']);
  t.deepEqual(reads.size.files, 4);
  const second = await probeCountingKept();
  t.deepEqual(second.programs, ['stat', 'sha256sum']);
  t.deepEqual(second.actual, first.actual);
  t.deepEqual(
    steps.map((s, i) => s.diff(s.desired as never, second.actual[i] as never).action),
    ['noop', 'noop', 'noop', 'noop', 'noop'],
  );

  // Same size, other bytes: the digest differs, so the file is read anew and the change is seen.
  writeFileSync(join(root, 'settings.ini'), 'port=8081\n');
  const third = await probeCountingKept();
  t.deepEqual(third.programs, ['stat', 'sha256sum', 'base64']);
  t.is(steps[2]!.diff(steps[2]!.desired as never, third.actual[2] as never).action, 'update');
  t.deepEqual(third.actual.slice(0, 2), first.actual.slice(0, 2));
  const fresh = await localSession(undefined, () => null).probe(plainProbes(steps));
  t.deepEqual(third.actual, actualOf(fresh), 'what the cache answers is what a probe without one parses');
});
