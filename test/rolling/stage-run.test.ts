// The staging run's pure parts (runner/rolling/stage-run.ts): which tasks `--stage` runs (the DSL's
// `stage: true`, kept out of every other run), the journal it writes for a plan and for the nodes it
// stages, and a run cut short resuming with the nodes not yet staged.
import test from 'ava';
import { definePlaybook } from '../../runner/playbook/define.js';
import type { HostReport, StepReport } from '../../runner/report/model.js';
import type { JournalEvent } from '../../runner/state/store.js';
import { recordStagePlan, type StageDeps, stageNodes, stagingPlaybook } from '../../runner/rolling/stage-run.js';
import { osBuild } from '../../tasks/windows/os-build.js';
import hotfixWindows from '../../playbooks/hotfix-windows.js';

const step = osBuild({ version: '10.0.17763', revision: 1217 });

test('stage: true tasks are only in the staging playbook; a playbook without any is refused', (t) => {
  const pb = definePlaybook({
    name: 'p',
    description: '',
    tasks: { prepare: { on: 'all', step, stage: true }, run: { on: 'all', step } },
  }).andThen({ after: { on: 'all', step, needs: ['run'] } });
  t.deepEqual(
    [Object.keys(pb.tasks), Object.keys(pb.staging ?? {}), Object.keys(stagingPlaybook(pb).tasks)],
    [['run', 'after'], ['prepare'], ['prepare']],
  );
  t.deepEqual(
    [Object.keys(hotfixWindows.tasks), Object.keys(stagingPlaybook(hotfixWindows).tasks)],
    [['hotfix', 'reboot', 'osBuild'], ['stage']],
  );
  const plain = definePlaybook({ name: 'plain', description: '', tasks: { run: { on: 'all', step } } });
  t.throws(() => stagingPlaybook(plain), {
    message: '--stage: playbook plain declares no staging task (a task with stage: true runs ahead of the window)',
  });
});

const stepReport = (s: Partial<StepReport>): StepReport => ({
  task: 'stage',
  kind: 'windows.hotfixStage',
  title: null,
  action: 'create',
  fields: ['msu', 'staged'],
  before: null,
  after: null,
  status: 'changed',
  durationMs: 1,
  error: null,
  ...s,
});

function journal(reports: Record<string, HostReport>, abortAfterStage = false) {
  const events: JournalEvent[] = [];
  const stop = new AbortController();
  const deps: StageDeps = {
    record: async (host, phase, state, detail, data) => {
      events.push({
        runId: 1,
        host,
        phase,
        state,
        at: 't',
        detail: detail ?? null,
        data: (data as Record<string, unknown> | undefined) ?? null,
      });
    },
    stage: async (hosts) => {
      if (abortAfterStage) stop.abort();
      return Object.fromEntries(hosts.map((h) => [h, reports[h]!]));
    },
    stop: stop.signal,
  };
  return { events, deps };
}

const line = (e: JournalEvent) => `${e.host || '-'} ${e.phase} ${e.state}${e.detail ? `: ${e.detail}` : ''}`;

test('the journal of a staging run: the plan, then each node staged, failed or already staged', async (t) => {
  const { events, deps } = journal({
    a: { status: 'changed', steps: [stepReport({})] },
    b: { status: 'failed', steps: [stepReport({ status: 'failed', error: 'not enough free disk' })] },
    c: { status: 'ok', steps: [stepReport({ status: 'ok', action: 'noop', fields: [] })] },
  });
  await recordStagePlan(deps, {
    work: ['a', 'b', 'c'],
    ok: ['d'],
    waived: [],
    failed: [{ host: 'e', reason: 'unreachable' }],
    changes: { a: ['hotfix: create installed'] },
  });
  t.deepEqual(await stageNodes(deps, events), ['b']);
  t.deepEqual(events.map(line), [
    'e check fail: unreachable',
    'd planned end: already in the desired state: not staged',
    '- plan note: 3 nodes to stage',
    'a planned end: stage: hotfix: create installed',
    'b planned end: stage: ',
    'c planned end: stage: ',
    '- batch begin: staging 3 nodes',
    'a stage begin',
    'b stage begin',
    'c stage begin',
    'a stage end: staged: stage (msu, staged)',
    'a done end: staged: never cordoned',
    'b stage fail: task stage failed: not enough free disk',
    'c stage end: already staged',
    'c done end: staged: never cordoned',
    '- batch end: 2 staged, 1 failed',
  ]);
});

test('a run cut short leaves its nodes in flight; the resume stages only those not done', async (t) => {
  const cut = journal(
    { a: { status: 'changed', steps: [stepReport({})] }, b: { status: 'interrupted', steps: [] } },
    true,
  );
  await recordStagePlan(cut.deps, { work: ['a', 'b'], ok: [], waived: [], failed: [], changes: {} });
  t.deepEqual(await stageNodes(cut.deps, cut.events), []);
  t.true(cut.events.some((e) => e.host === 'a' && e.phase === 'done'));
  t.false(
    cut.events.some((e) => e.host === 'b' && e.phase === 'stage' && e.state !== 'begin'),
    'b left in flight',
  );
  const resumed = journal({ b: { status: 'changed', steps: [stepReport({})] } });
  const staged: string[][] = [];
  const deps = {
    ...resumed.deps,
    stage: async (hosts: readonly string[]) => {
      staged.push([...hosts]);
      return resumed.deps.stage(hosts);
    },
  };
  await stageNodes(deps, cut.events);
  t.deepEqual(staged, [['b']]);
});
