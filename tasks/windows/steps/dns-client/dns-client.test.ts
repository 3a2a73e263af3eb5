// windows.dnsClient (this folder): its option errors, and its three runs against the simulated node
// (the Tcpip\Parameters key and the suffix search list are part of the node's shared Windows surface).
import test from 'ava';
import { getValue, setValue } from '../../../../lab/windows/registry-store.js';
import { StepOptionError } from '../../../../runner/core/errors.js';
import { simulatedNode } from '../../../../test/tasks/windows/sim-node.js';
import { plan, threeRuns } from '../../../../test/tasks/windows/step-runs.js';
import { dnsClient } from './step.js';

const optionErrors: { options: unknown; field: string; message: RegExp }[] = [
  { options: {}, field: 'primaryDomain', message: /or suffixSearchList is required/ },
  { options: { primaryDomain: 'my lan' }, field: 'primaryDomain', message: /DNS domain/ },
  {
    options: { suffixSearchList: ['mylan.k8s', '-x'] },
    field: 'suffixSearchList[1]',
    message: /DNS domain/,
  },
];

test('option errors name the step and the field', (t) => {
  for (const e of optionErrors) {
    const err = t.throws(
      () => dnsClient(e.options as never),
      { instanceOf: StepOptionError },
      JSON.stringify(e.options),
    );
    t.is((err as StepOptionError & { field: string }).field, e.field, JSON.stringify(e.options));
    t.regex(err!.message, e.message);
  }
});

const TCPIP = 'HKLM:\\SYSTEM\\CurrentControlSet\\Services\\Tcpip\\Parameters';

test('NV Domain and the suffix search list in three runs; case does not matter', async (t) => {
  const { node, n } = simulatedNode(t);
  const r = await threeRuns(n, dnsClient({ primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] }));
  t.deepEqual(r.first.fields, ['primaryDomain', 'suffixSearchList']);
  t.deepEqual(
    { primaryDomain: getValue(node.state, TCPIP, 'NV Domain')?.data, suffixSearchList: node.state.dnsSuffixSearchList },
    { primaryDomain: 'mylan.k8s', suffixSearchList: ['mylan.k8s'] },
  );
  setValue(node.state, TCPIP, 'NV Domain', 'String', 'MyLan.K8s');
  t.is((await plan(n, dnsClient({ primaryDomain: 'mylan.k8s' }))).change.action, 'noop');
});
