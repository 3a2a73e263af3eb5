// play's drain (runner/rolling/cluster.ts KubectlCluster) read from two real kubectl clients against the
// Kubernetes API double (lab/cluster/api/, a test double): the machine's /usr/bin/kubectl (1.32) and
// Debian's kubernetes-client (1.20), whose texts differ (`WARNING:` for `Warning:`, `node/X evicted` for
// `node/X drained`, `aborting command...` for `due to error: ..., continuing command...`). Each client
// must give play the same outcome: what was evicted, that a budget held the drain until its timeout, and
// which pods and budget. The 1.20 binary is unpacked once by CI (see kubectlOrExplain's message).
import test from 'ava';
import { KubectlCluster } from '../../../runner/rolling/cluster.js';
import { addBarePod, addPdb, addReplicaSet } from '../../../lab/cluster/workloads.js';
import { InProcessKubectl } from '../../rolling/in-process-kubectl.js';
import { KUBECTL, kubectlOrExplain } from './api-double.js';
import { cluster } from './fixture.js';

/** Debian's kubernetes-client 1.20, unpacked (not installed) so /usr/bin/kubectl stays the current one. */
const DEBIAN_KUBECTL = process.env.PLAY_KUBECTL_DEBIAN ?? '/var/cache/play-ci/kubernetes-client/usr/bin/kubectl';
const UNPACK = `mkdir -p /var/cache/play-ci/kubernetes-client && cd /var/cache/play-ci/kubernetes-client && apt-get download kubernetes-client && dpkg -x kubernetes-client_*.deb . && rm kubernetes-client_*.deb`;

for (const [client, bin] of [
  ['kubectl 1.32', KUBECTL],
  ['kubectl 1.20 (Debian)', DEBIAN_KUBECTL],
] as const) {
  const drainer = (file: string) => {
    try {
      kubectlOrExplain(bin);
    } catch (e) {
      throw new Error(`${(e as Error).message.replace(/install it .*$/, '')}unpack it with: ${UNPACK}`);
    }
    return new KubectlCluster(new InProcessKubectl(file, bin), 'kubectl');
  };

  test(`${client}: a drain that waits for a budget once evicts both pods, and play counts two`, async (t) => {
    const c = cluster(t, (s) => {
      addReplicaSet(s, { name: 'web', replicas: 3, labels: { app: 'web' }, nodes: ['node001', 'node001', 'node002'] });
      addPdb(s, { name: 'web-pdb', maxUnavailable: 1, selector: { app: 'web' } });
    });
    t.deepEqual(await drainer(c.file).drain('node001', 30), { ok: true, evicted: 2 });
    t.true(c.read().nodes.node001!.unschedulable);
  });

  test(`${client}: a budget that holds the drain: timed out, the pod and the budget named`, async (t) => {
    const c = cluster(t, (s) => {
      addReplicaSet(s, { name: 'solo', replicas: 1, labels: { app: 'solo' }, nodes: ['node003'] });
      addPdb(s, { name: 'solo', minAvailable: 1, selector: { app: 'solo' } });
    });
    const pod = Object.keys(c.read().pods!)[0]!;
    t.deepEqual(await drainer(c.file).drain('node003', 1), {
      ok: false,
      timedOut: true,
      message: `drain timed out after 1s; pods still on the node: ${pod}; held by PodDisruptionBudget default/solo`,
      podsLeft: [pod],
      budgets: ['default/solo'],
    });
  });

  test(`${client}: a bare pod refuses the drain at once, in kubectl's words`, async (t) => {
    const c = cluster(t, (s) => void addBarePod(s, { name: 'debug', node: 'node002' }));
    const cluster2 = drainer(c.file);
    const r = await cluster2.drain('node002', 30);
    t.like(r, { ok: false, timedOut: false, podsLeft: ['default/debug'], budgets: [] });
    t.regex(
      (r as { message: string }).message,
      /^drain failed: unable to drain node "node002".*; pods still on the node: default\/debug$/,
    );
    await cluster2.uncordon('node002');
    t.deepEqual(await cluster2.node('node002'), { name: 'node002', ready: true, unschedulable: false });
    t.is(await cluster2.node('node404'), null);
  });
}
