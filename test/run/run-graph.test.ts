// The runner's scheduling rules, with each "host" a local directory reached through a real
// /bin/sh (a test double of a connection; the SSH end to end tests are in test/e2e).
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diffFields } from '../../runner/core/change.js';
import { UnreachableError } from '../../runner/core/errors.js';
import { sh } from '../../runner/core/quote.js';
import { mustRun } from '../../runner/core/remote.js';
import type { ExecResult, Step } from '../../runner/core/step.js';
import type { Host, Inventory } from '../../runner/inventory/model.js';
import { compileGraph } from '../../runner/playbook/compile.js';
import { definePlaybook, type Playbook } from '../../runner/playbook/define.js';
import { exitCode, type RunReport } from '../../runner/report/model.js';
import { prebuildSteps, runGraph } from '../../runner/run/run-graph.js';

/** A file with given content; `broken` makes apply do nothing (never converges). */
function marker(
  path: string,
  content: string,
  opts: { broken?: boolean; fail?: boolean } = {},
): Step<{ content: string }, { content: string }, { content: string }> {
  const desired = Object.freeze({ content });
  return {
    kind: 'test.marker',
    title: `marker ${path}`,
    desired,
    probe: () => ({
      script: sh`if [ -e ${path} ]; then printf 'present:'; cat ${path}; else printf absent; fi`,
      parse: (r: ExecResult) => (r.stdout === 'absent' ? null : { content: r.stdout.replace(/^present:/, '') }),
    }),
    diff: (d, a) => diffFields(d, a, ['content']),
    apply: async (remote) => {
      if (opts.fail) await mustRun(remote, sh`echo 'disk on fire' >&2; exit 7`, 'write marker');
      if (!opts.broken) await mustRun(remote, sh`printf '%s' ${content} > ${path}`, 'write marker');
      return { content };
    },
    outputs: (_d, a) => ({ content: a?.content ?? '' }),
  };
}

function inventory(names: string[]): { inv: Inventory; dirs: Record<string, string> } {
  const dirs: Record<string, string> = {};
  const hosts: Host[] = names.map((name) => {
    dirs[name] = mkdtempSync(join(tmpdir(), `play-rg-${name}-`));
    return {
      name,
      vars: { dir: dirs[name] },
      groups: ['all', 'web'],
      connection: { address: '127.0.0.1', port: 22, user: 'root', os: 'linux' },
    };
  });
  const groups = new Map([
    ['all', { name: 'all', hosts: names, children: ['web'], vars: {} }],
    ['web', { name: 'web', hosts: names, children: [], vars: {} }],
  ]);
  return { inv: { file: 'test.yaml', hosts, groups, host: (n) => hosts.find((h) => h.name === n) }, dirs };
}

interface Counters {
  execs: Record<string, number>;
  active: number;
  maxActive: number;
}

function localConnect(counters: Counters, unreachable: string[] = []) {
  return async (host: Host) => {
    if (unreachable.includes(host.name))
      throw new UnreachableError(host.name, `${host.name} (127.0.0.1:22): connection refused`);
    return {
      exec: (command: string) =>
        new Promise<ExecResult>((resolve) => {
          counters.execs[host.name] = (counters.execs[host.name] ?? 0) + 1;
          counters.active++;
          counters.maxActive = Math.max(counters.maxActive, counters.active);
          const child = spawn('/bin/sh', ['-c', command]);
          let stdout = '',
            stderr = '';
          child.stdout.on('data', (d) => (stdout += d));
          child.stderr.on('data', (d) => (stderr += d));
          child.on('close', (code) => {
            counters.active--;
            resolve({ stdout, stderr, code });
          });
        }),
    };
  };
}

async function run(
  pb: Playbook,
  names: string[],
  opts: {
    check?: boolean;
    forks?: number;
    unreachable?: string[];
    dirs?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
) {
  const { inv, dirs } = inventory(names);
  if (opts.dirs) for (const h of inv.hosts) (h.vars as any).dir = opts.dirs[h.name];
  const graph = compileGraph(pb, inv);
  const counters: Counters = { execs: {}, active: 0, maxActive: 0 };
  const report: RunReport = await runGraph(graph, inv, prebuildSteps(graph, inv), {
    mode: opts.check ? 'check' : 'apply',
    forks: opts.forks ?? 5,
    timeoutMs: 10_000,
    connect: localConnect(counters, opts.unreachable),
    signal: opts.signal,
  });
  return { report, counters, dirs: opts.dirs ?? dirs };
}

const step = (name: string) => (r: RunReport, host: string) => r.hosts[host]!.steps.find((s) => s.task === name)!;

const chain = definePlaybook({
  name: 'chain',
  description: 'a -> b -> c, b fails where asked, d when b changed',
  tasks: {
    a: { on: 'web', step: ({ host }) => marker(`${host.vars.dir}/a`, 'A') },
    b: { on: 'web', needs: ['a'], step: ({ host }) => marker(`${host.vars.dir}/b`, 'B', { fail: host.name === 'h2' }) },
    c: { on: 'web', needs: ['b'], step: ({ host }) => marker(`${host.vars.dir}/c`, 'C') },
    d: { on: 'web', triggeredBy: ['b'], step: ({ host }) => marker(`${host.vars.dir}/d`, `D${Date.now()}`) },
  },
});

test('a failed step skips its dependents with the reason; other hosts finish', async (t) => {
  const { report, dirs } = await run(chain, ['h1', 'h2', 'h3']);
  t.is(report.hosts.h2!.status, 'failed');
  t.regex(step('b')(report, 'h2').error!, /write marker failed \(exit 7\): disk on fire/);
  t.is(step('c')(report, 'h2').status, 'skipped');
  t.is(step('c')(report, 'h2').error, 'needs b on h2, which failed');
  t.false(existsSync(join(dirs.h2!, 'c')));
  for (const h of ['h1', 'h3']) {
    t.is(report.hosts[h]!.status, 'changed');
    t.is(readFileSync(join(dirs[h]!, 'c'), 'utf8'), 'C');
  }
  t.deepEqual(report.summary, { ok: 0, changed: 2, failed: 1, skipped: 0, unreachable: 0, interrupted: 0 });
  t.is(exitCode(report), 3);
});

test('triggeredBy runs only when the trigger changed; a second run changes nothing', async (t) => {
  const first = await run(chain, ['h1']);
  t.is(step('d')(first.report, 'h1').status, 'changed');
  const second = await run(chain, ['h1'], { dirs: first.dirs });
  t.is(second.report.hosts.h1!.status, 'ok');
  t.is(step('d')(second.report, 'h1').status, 'skipped');
  t.regex(step('d')(second.report, 'h1').error!, /^not triggered: b did not change/);
  t.is(step('d')(second.report, 'h1').skip, 'not-triggered');
  t.is(exitCode(second.report), 0);
});

test("an idempotent run probes all of a host's steps in one round trip", async (t) => {
  const first = await run(chain, ['h1']);
  const second = await run(chain, ['h1'], { dirs: first.dirs });
  t.is(second.counters.execs.h1, 1);
});

test('check mode changes nothing, reports changes, and outputs it cannot know are unknown', async (t) => {
  const pb = definePlaybook({
    name: 'outputs',
    description: 'b reads what a produced',
    tasks: {
      a: { on: 'web', step: ({ host }) => marker(`${host.vars.dir}/a`, 'from-a') },
    },
  }).andThen({
    b: {
      on: 'web',
      needs: ['a'],
      step: ({ host, output }) => marker(`${host.vars.dir}/b`, `copy of ${output('a').content}`),
    },
  });
  const checked = await run(pb, ['h1'], { check: true });
  t.is(step('a')(checked.report, 'h1').status, 'changed');
  t.is(step('a')(checked.report, 'h1').action, 'create');
  t.is(step('b')(checked.report, 'h1').status, 'unknown');
  t.is(step('b')(checked.report, 'h1').error, 'unknown (needs a on h1)');
  t.false(existsSync(join(checked.dirs.h1!, 'a')));
  t.is(exitCode(checked.report), 2);
  const applied = await run(pb, ['h1'], { dirs: checked.dirs });
  t.is(readFileSync(join(checked.dirs.h1!, 'b'), 'utf8'), 'copy of from-a');
  t.is(applied.report.hosts.h1!.status, 'changed');
});

test('a step whose apply does not take effect fails as not converged', async (t) => {
  const pb = definePlaybook({
    name: 'broken',
    description: '',
    tasks: { a: { on: 'web', step: ({ host }) => marker(`${host.vars.dir}/a`, 'A', { broken: true }) } },
  });
  const { report } = await run(pb, ['h1']);
  t.is(step('a')(report, 'h1').status, 'failed');
  t.is(step('a')(report, 'h1').error, 'not converged: content');
});

test('an unreachable host is reported as such and the others go on', async (t) => {
  const { report } = await run(chain, ['h1', 'h3'], { unreachable: ['h3'] });
  t.is(report.hosts.h3!.status, 'unreachable');
  t.true(report.hosts.h3!.steps.filter((s) => s.task === 'a').every((s) => s.status === 'unreachable'));
  t.regex(step('a')(report, 'h3').error!, /connection refused/);
  t.is(report.hosts.h1!.status, 'changed');
  t.is(exitCode(report), 4);
});

test('never more steps at once than forks', async (t) => {
  const names = Array.from({ length: 8 }, (_, i) => `h${i + 1}`);
  const { counters, report } = await run(chain, names, { forks: 3 });
  t.true(counters.maxActive <= 3, `max ${counters.maxActive}`);
  t.is(Object.keys(report.hosts).length, 8);
});

test('an abort starts nothing new, lets running steps finish, and marks the rest interrupted', async (t) => {
  const controller = new AbortController();
  const pb = definePlaybook({
    name: 'slow',
    description: '',
    tasks: {
      a: {
        on: 'web',
        step: ({ host }) => {
          const m = marker(`${host.vars.dir}/a`, 'A');
          return {
            ...m,
            apply: async (r, c, a, d) => {
              controller.abort();
              return m.apply(r, c, a, d);
            },
          };
        },
      },
      b: { on: 'web', needs: ['a'], step: ({ host }) => marker(`${host.vars.dir}/b`, 'B') },
    },
  });
  const { report, dirs } = await run(pb, ['h1'], { signal: controller.signal, forks: 1 });
  t.true(report.interrupted);
  t.is(step('a')(report, 'h1').status, 'changed');
  t.is(step('b')(report, 'h1').status, 'skipped');
  t.is(step('b')(report, 'h1').error, 'interrupted');
  t.is(step('b')(report, 'h1').skip, 'interrupted');
  // A host whose run was cut short is interrupted, not ok (nor "changed" for what it did before).
  t.is(report.hosts.h1!.status, 'interrupted');
  t.deepEqual(report.summary, { ok: 0, changed: 0, failed: 0, skipped: 0, unreachable: 0, interrupted: 1 });
  t.true(existsSync(join(dirs.h1!, 'a')));
  t.is(exitCode(report), 130);
  writeFileSync(join(dirs.h1!, 'x'), '');
});

test('check mode names a triggered task as "would run" without planning it; what needs it is still planned', async (t) => {
  const pb = definePlaybook({
    name: 'handlers',
    description: '',
    tasks: {
      conf: { on: 'web', step: ({ host }) => marker(`${host.vars.dir}/conf`, 'v2') },
      restart: { on: 'web', triggeredBy: ['conf'], step: ({ host }) => marker(`${host.vars.dir}/restarted`, 'yes') },
      after: { on: 'web', needs: ['restart'], step: ({ host }) => marker(`${host.vars.dir}/after`, 'A') },
    },
  });
  const { report } = await run(pb, ['h1'], { check: true });
  t.is(step('conf')(report, 'h1').status, 'changed');
  t.like(step('restart')(report, 'h1'), {
    status: 'skipped',
    skip: 'would-run',
    error: 'would run: triggered by conf (check mode does not run triggered tasks)',
  });
  t.is(step('after')(report, 'h1').status, 'changed');
  t.is(exitCode(report), 2);
});

// An optional task (tor-gateway's cluster read on a `control` group most inventories of ToR hosts lack).
const optionalRead = (on: string, delegateTo?: string) =>
  definePlaybook({
    name: 'optional',
    description: '',
    tasks: {
      read: {
        on,
        ...(delegateTo ? { delegateTo } : {}),
        optional: true,
        step: ({ host }) => marker(`${host.vars.dir}/read`, 'R'),
      },
    },
  }).andThen({
    use: {
      on: 'web',
      needs: ['read'],
      step: ({ host, optionalOutput }) => marker(`${host.vars.dir}/use`, optionalOutput('read')?.content ?? 'no read'),
    },
  });

test('an optional task whose group the inventory lacks has no nodes; what needs it runs and sees no output', async (t) => {
  const { report, dirs } = await run(optionalRead('control'), ['h1']);
  t.deepEqual(
    report.hosts.h1!.steps.map((s) => [s.task, s.status]),
    [['use', 'changed']],
  );
  t.is(readFileSync(join(dirs.h1!, 'use'), 'utf8'), 'no read');
  // Not optional: the same pattern is an input error naming the task, before anything runs.
  const strict = definePlaybook({
    name: 'strict',
    description: '',
    tasks: { read: { on: 'control', step: marker('/nonexistent/x', 'R') } },
  });
  t.throws(() => compileGraph(strict, inventory(['h1']).inv), {
    message: /task 'read', on 'control': host pattern 'control': 'control' matches no host or group/,
  });
});

test('an optional task whose hosts exist runs first, and its output is read', async (t) => {
  const { report, dirs } = await run(optionalRead('web'), ['h1', 'h2']);
  t.deepEqual(
    report.hosts.h1!.steps.map((s) => [s.task, s.status]),
    [
      ['read', 'changed'],
      ['use', 'changed'],
    ],
  );
  t.is(readFileSync(join(dirs.h1!, 'use'), 'utf8'), 'R');
});
