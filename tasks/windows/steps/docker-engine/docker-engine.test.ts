// windows.dockerEngine (this folder): its option errors, its diff table, and its three runs against
// the simulated node (Docker, the Containers feature and PSGallery's DockerMsftProvider are part of the
// node's shared Windows surface).
import test from 'ava';
import type { Change } from '../../../../runner/core/change.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { bootNow, simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { plan, threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { type DockerEngineActual, dockerEngine } from './step.js';

test('option errors name the field and say what is wanted; no version is null', (t) => {
  const rows: { options: unknown; field: string; message: RegExp }[] = [
    { options: { version: 'latest' }, field: 'version', message: /Docker version such as 19\.03\.5/ },
  ];
  for (const r of rows) {
    const e = t.throws(() => dockerEngine(r.options as never), { instanceOf: StepOptionError });
    t.like(e, { kind: 'windows.dockerEngine', field: r.field });
    t.regex(e!.message, r.message);
  }
  t.is(dockerEngine().desired.version, null);
});

// A row with `warning` compares its warnings by that pattern instead.
test('diff: absent, service without exe, wanted and other version, daemon down', (t) => {
  const rows: {
    name: string;
    step: ReturnType<typeof dockerEngine>;
    actual: DockerEngineActual;
    expect: Omit<Change, 'warnings'> & { warning?: RegExp };
  }[] = [
    {
      name: 'docker absent',
      step: dockerEngine(),
      actual: { serviceExists: false, clientVersion: null, engineVersion: null, problems: [] },
      expect: {
        action: 'create',
        fields: ['installed'],
        before: { installed: 'absent' },
        after: { installed: 'latest' },
      },
    },
    {
      name: 'docker service without exe',
      step: dockerEngine({ version: '19.03.5' }),
      actual: { serviceExists: true, clientVersion: null, engineVersion: null, problems: [] },
      expect: {
        action: 'create',
        fields: ['installed'],
        before: { installed: 'service without docker.exe' },
        after: { installed: '19.03.5' },
      },
    },
    {
      name: 'docker wanted version',
      step: dockerEngine({ version: '19.03.5' }),
      actual: { serviceExists: true, clientVersion: '19.03.5', engineVersion: '19.03.5', problems: [] },
      expect: { action: 'noop', fields: [], before: null, after: null },
    },
    {
      name: 'docker other version',
      step: dockerEngine({ version: '19.03.5' }),
      actual: { serviceExists: true, clientVersion: '19.03.0', engineVersion: '19.03.0', problems: [] },
      expect: { action: 'update', fields: ['version'], before: { version: '19.03.0' }, after: { version: '19.03.5' } },
    },
    {
      name: 'docker daemon down, any version',
      step: dockerEngine(),
      actual: {
        serviceExists: true,
        clientVersion: '19.03.0',
        engineVersion: null,
        problems: ['error during connect'],
      },
      expect: {
        action: 'noop',
        fields: [],
        before: null,
        after: null,
        warning: /did not answer: error during connect/,
      },
    },
  ];
  for (const r of rows) {
    const change = r.step.diff(r.step.desired, r.actual);
    const { warning, ...expect } = r.expect;
    const { warnings, ...rest } = change;
    t.deepEqual(warning ? rest : change, expect, r.name);
    if (warning)
      t.true(
        (warnings ?? []).some((x) => warning.test(x)),
        `${r.name}: ${JSON.stringify(warnings)}`,
      );
  }
});

test('three runs: a fresh install needs a reboot; the daemon down afterwards is a warning, not drift', async (t) => {
  // A fresh node has no Docker and no Containers: the install enables Containers, which waits for a reboot.
  const { node, n } = simulatedNode(t);
  const r = await threeRuns(n, dockerEngine({ version: '19.03.0' }));
  t.deepEqual(r.outputs, { rebootRequired: true });
  t.regex((await plan(n, dockerEngine())).change.warnings![0]!, /daemon did not answer: error during connect/);
  // After the reboot, the engine was upgraded behind the plan's back.
  bootNow(node);
  node.state.docker.version = '19.03.5';
  const up = await plan(n, dockerEngine({ version: '19.03.0' }));
  t.deepEqual(up.change, {
    action: 'update',
    fields: ['version'],
    before: { version: '19.03.5' },
    after: { version: '19.03.0' },
  });
});
