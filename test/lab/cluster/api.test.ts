// The Kubernetes API double (lab/cluster/api/, a test double of kube-apiserver) spoken to over HTTPS
// directly: the answers kubectl turns into its messages, as request/response tables. Status bodies are
// kube-apiserver's (k8s.io/apimachinery/pkg/api/errors); the eviction refusal is its eviction.go's.
import test from 'ava';
import type { ClusterState } from '../../../lab/cluster/cluster-state.js';
import { addPdb, addReplicaSet } from '../../../lab/cluster/workloads.js';
import { cluster } from './fixture.js';

const status = (code: number, reason: string | undefined, message: string, details?: object) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  ...(reason ? { reason } : {}),
  ...(details ? { details } : {}),
  code,
});

const web = (s: ClusterState) => {
  addReplicaSet(s, { name: 'web', replicas: 2, labels: { app: 'web' }, nodes: ['node001', 'node002'] });
  addPdb(s, { name: 'web-pdb', minAvailable: 2, selector: { app: 'web' } });
};

test('a token is checked on every request: none or a wrong one is 401', async (t) => {
  const c = cluster(t);
  const unauthorized = { status: 401, body: status(401, 'Unauthorized', 'Unauthorized') };
  t.deepEqual(await c.request('GET', '/api/v1/nodes', { token: null }), unauthorized);
  t.deepEqual(await c.request('GET', '/version', { token: 'not-the-token' }), unauthorized);
  t.like(await c.request('GET', '/version'), { status: 200, body: { gitVersion: 'v1.24.17', minor: '24' } });
});

test('discovery: pods/eviction names policy/v1 (what kubectl drain sends); policy serves v1 and v1beta1', async (t) => {
  const c = cluster(t);
  const core = (await c.request('GET', '/api/v1')).body;
  t.deepEqual(
    core.resources.find((r: { name: string }) => r.name === 'pods/eviction'),
    {
      name: 'pods/eviction',
      singularName: '',
      namespaced: true,
      group: 'policy',
      version: 'v1',
      kind: 'Eviction',
      verbs: ['create'],
    },
  );
  const groups = (await c.request('GET', '/apis')).body.groups;
  t.deepEqual(
    groups.find((g: { name: string }) => g.name === 'policy').versions.map((v: { version: string }) => v.version),
    ['v1', 'v1beta1'],
  );
  t.deepEqual((await c.request('GET', '/apis/apps/v2')).status, 404);
});

test('OpenAPI v3: each kind, and a PATCH taking fieldValidation where the resource has one (kubectl create -f asks)', async (t) => {
  const c = cluster(t);
  const index = (await c.request('GET', '/openapi/v3')).body.paths;
  t.deepEqual(Object.keys(index).sort(), [
    'api/v1',
    'apis/apps/v1',
    'apis/coordination.k8s.io/v1',
    'apis/policy/v1',
    'apis/policy/v1beta1',
  ]);
  const doc = (await c.request('GET', index['apis/coordination.k8s.io/v1'].serverRelativeURL)).body;
  t.deepEqual(doc.components.schemas['io.k8s.api.coordination.v1.Lease']['x-kubernetes-group-version-kind'], [
    { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
  ]);
  t.like(doc.paths['/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}'].patch, {
    parameters: [{ name: 'fieldValidation', in: 'query' }],
    'x-kubernetes-group-version-kind': { group: 'coordination.k8s.io', kind: 'Lease', version: 'v1' },
  });
  const core = (await c.request('GET', '/openapi/v3/api/v1')).body;
  t.deepEqual(Object.keys(core.paths), ['/api/v1/nodes/{name}'], 'pods have no patch here');
  t.is((await c.request('GET', '/openapi/v2')).status, 404);
});

test('404: a missing object names it; an unknown resource is "could not find the requested resource"', async (t) => {
  const c = cluster(t);
  const rows: [string, object][] = [
    ['/api/v1/nodes/node404', status(404, 'NotFound', 'nodes "node404" not found', { name: 'node404', kind: 'nodes' })],
    [
      '/api/v1/namespaces/default/pods/web-1',
      status(404, 'NotFound', 'pods "web-1" not found', { name: 'web-1', kind: 'pods' }),
    ],
    [
      '/apis/policy/v1/namespaces/default/poddisruptionbudgets/pdb-1',
      status(404, 'NotFound', 'poddisruptionbudgets.policy "pdb-1" not found', {
        name: 'pdb-1',
        group: 'policy',
        kind: 'poddisruptionbudgets',
      }),
    ],
    [
      '/apis/coordination.k8s.io/v1/namespaces/default/leases/l',
      status(404, 'NotFound', 'leases.coordination.k8s.io "l" not found', {
        name: 'l',
        group: 'coordination.k8s.io',
        kind: 'leases',
      }),
    ],
    [
      '/apis/apps/v1/namespaces/default/deployments',
      status(404, 'NotFound', 'the server could not find the requested resource', {}),
    ],
  ];
  for (const [path, body] of rows) t.deepEqual(await c.request('GET', path), { status: 404, body }, path);
});

test('eviction: 201 and a replacement; 429 naming the budget while it allows none; 500 under two budgets', async (t) => {
  const c = cluster(t, web);
  const [a, b] = Object.values(c.read().pods!).map((p) => p.name);
  const evict = (name: string) =>
    c.request('POST', `/api/v1/namespaces/default/pods/${name}/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
    });
  t.deepEqual(await evict(a!), {
    status: 429,
    body: status(429, 'TooManyRequests', "Cannot evict pod as it would violate the pod's disruption budget.", {
      causes: [
        {
          reason: 'DisruptionBudget',
          message: 'The disruption budget web-pdb needs 2 healthy pods and has 2 currently',
        },
      ],
    }),
  });
  c.write({ ...c.read(), pdbs: {} });
  t.deepEqual(await evict(a!), {
    status: 201,
    body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 },
  });
  t.false(`default/${a}` in c.read().pods!);
  t.is(Object.keys(c.read().pods!).length, 2, 'the ReplicaSet made a replacement');
  t.deepEqual((await evict(a!)).status, 404);
  t.deepEqual(
    await c.request('POST', `/api/v1/namespaces/default/pods/${b}/eviction`, {
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } },
    }),
    { status: 400, body: status(400, 'BadRequest', 'name in URL does not match name in Eviction object') },
  );
  const s = c.read();
  addPdb(s, { name: 'one', maxUnavailable: 1, selector: { app: 'web' } });
  addPdb(s, { name: 'two', maxUnavailable: 1, selector: { app: 'web' } });
  c.write(s);
  t.deepEqual(await evict(b!), {
    status: 500,
    body: status(
      500,
      undefined,
      'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    ),
  });
});

test('leases: create, get, update with resourceVersion; stale is 409 Conflict, again is 409 AlreadyExists', async (t) => {
  const c = cluster(t);
  const path = '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases';
  const lease = (spec: object, meta: object = {}) => ({
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: 'play-rollout', ...meta },
    spec,
  });
  const created = await c.request('POST', path, { body: lease({ holderIdentity: 'a', leaseDurationSeconds: 30 }) });
  t.like(created, {
    status: 201,
    body: { kind: 'Lease', metadata: { name: 'play-rollout', namespace: 'kube-system' } },
  });
  const rv1 = created.body.metadata.resourceVersion as string;
  t.deepEqual(await c.request('POST', path, { body: lease({ holderIdentity: 'b' }) }), {
    status: 409,
    body: status(409, 'AlreadyExists', 'leases.coordination.k8s.io "play-rollout" already exists', {
      name: 'play-rollout',
      group: 'coordination.k8s.io',
      kind: 'leases',
    }),
  });
  const updated = await c.request('PUT', `${path}/play-rollout`, {
    body: lease({ holderIdentity: 'a', leaseDurationSeconds: 30, leaseTransitions: 1 }, { resourceVersion: rv1 }),
  });
  t.like(updated, { status: 200, body: { spec: { leaseTransitions: 1 } } });
  t.true(Number(updated.body.metadata.resourceVersion) > Number(rv1), 'a new resourceVersion');
  const conflict = status(
    409,
    'Conflict',
    'Operation cannot be fulfilled on leases.coordination.k8s.io "play-rollout": the object has been modified; please apply your changes to the latest version and try again',
    { name: 'play-rollout', group: 'coordination.k8s.io', kind: 'leases' },
  );
  t.deepEqual(
    await c.request('PUT', `${path}/play-rollout`, { body: lease({ holderIdentity: 'b' }, { resourceVersion: rv1 }) }),
    { status: 409, body: conflict },
  );
  t.like(await c.request('GET', `${path}/play-rollout`), { status: 200, body: { spec: { holderIdentity: 'a' } } });
  t.like(await c.request('PUT', `${path}/nope`, { body: { metadata: { name: 'nope' }, spec: {} } }), { status: 404 });
  const merge = (body: object) =>
    c.request('PATCH', `${path}/play-rollout`, { body, contentType: 'application/merge-patch+json' });
  t.deepEqual(await merge({ metadata: { resourceVersion: rv1 }, spec: { holderIdentity: 'b' } }), {
    status: 409,
    body: conflict,
  });
  t.like(await merge({ spec: { holderIdentity: null, renewTime: '2026-11-23T10:00:00.000000Z' } }), {
    status: 200,
    body: { spec: { leaseDurationSeconds: 30, leaseTransitions: 1, renewTime: '2026-11-23T10:00:00.000000Z' } },
  });
  t.false('holderIdentity' in (await c.request('GET', `${path}/play-rollout`)).body.spec, 'null removes a field');
  t.deepEqual(
    await c.request('POST', `${path}?fieldValidation=Strict`, { body: lease({ holder: 'x' }, { name: 'strict' }) }),
    {
      status: 400,
      body: status(
        400,
        'BadRequest',
        'Lease in version "v1" cannot be handled as a Lease: strict decoding error: unknown field "spec.holder"',
      ),
    },
  );
  t.like(await c.request('POST', path, { body: lease({ holder: 'x' }, { name: 'lax' }) }), {
    status: 201,
    body: { spec: {} },
  });
  t.like(await c.request('POST', path, { body: lease({ leaseDurationSeconds: 0 }, { name: 'bad' }) }), {
    status: 422,
    body: {
      message:
        'Lease.coordination.k8s.io "bad" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0',
    },
  });
  t.like(await c.request('DELETE', `${path}/play-rollout`, { body: { preconditions: { resourceVersion: rv1 } } }), {
    status: 409,
    body: { reason: 'Conflict' },
  });
  t.like(await c.request('DELETE', `${path}/play-rollout`), { status: 200, body: { status: 'Success' } });
  t.is((await c.request('GET', `${path}/play-rollout`)).status, 404);
});

test('nodes: a patch changes spec.unschedulable (strategic, merge or JSON patch) and nothing else', async (t) => {
  const c = cluster(t);
  const patch = (body: unknown, contentType: string) =>
    c.request('PATCH', '/api/v1/nodes/node001', { body, contentType });
  const before = (await c.request('GET', '/api/v1/nodes/node001')).body.metadata.resourceVersion;
  const cordoned = await patch({ spec: { unschedulable: true } }, 'application/strategic-merge-patch+json');
  t.like(cordoned, { status: 200, body: { kind: 'Node', spec: { unschedulable: true } } });
  t.true(Number(cordoned.body.metadata.resourceVersion) > Number(before));
  t.like(await patch({ spec: { unschedulable: null } }, 'application/merge-patch+json'), { status: 200 });
  t.false(c.read().nodes.node001!.unschedulable);
  t.like(await patch([{ op: 'replace', path: '/spec/unschedulable', value: true }], 'application/json-patch+json'), {
    status: 200,
  });
  t.true(c.read().nodes.node001!.unschedulable);
  t.like(await patch({ metadata: { labels: { pool: 'a' } } }, 'application/merge-patch+json'), {
    status: 422,
    body: {
      reason: 'Invalid',
      message:
        'Node "node001" is invalid: metadata: Forbidden: the play lab API double changes only spec.unschedulable of a node',
    },
  });
  t.like(await patch({ spec: { unschedulable: true } }, 'application/apply-patch+yaml'), {
    status: 415,
    body: { reason: 'UnsupportedMediaType' },
  });
  t.deepEqual(
    c.events().map((e) => `${e.kind} ${e.node}`),
    ['cordon node001', 'uncordon node001', 'cordon node001'],
  );
});

test('lists: field and label selectors, a Table when asked for one, 400 for a field the API does not index', async (t) => {
  const c = cluster(t, web);
  const pods = await c.request(
    'GET',
    '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode001&labelSelector=app%20in%20(web,db)',
  );
  t.is(pods.status, 200);
  t.like(pods.body, { kind: 'PodList', apiVersion: 'v1' });
  t.deepEqual(
    pods.body.items.map((p: any) => [p.metadata.namespace, p.spec.nodeName]),
    [['default', 'node001']],
  );
  t.is((await c.request('GET', '/api/v1/pods?labelSelector=app!%3Dweb')).body.items.length, 0);
  const table = await c.request('GET', '/api/v1/nodes', {
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
  });
  t.like(table.body, { kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
  t.deepEqual(
    table.body.columnDefinitions.filter((d: any) => d.priority === 0).map((d: any) => d.name),
    ['Name', 'Status', 'Roles', 'Age', 'Version'],
  );
  t.deepEqual(table.body.rows[0].cells.slice(0, 3), ['control1', 'Ready', 'master']);
  t.deepEqual(await c.request('GET', '/api/v1/pods?fieldSelector=spec.hostname%3Dx'), {
    status: 400,
    body: status(
      400,
      'BadRequest',
      'Unable to find "/v1, Resource=pods" that match label selector "", field selector "spec.hostname=x": field label not supported: spec.hostname',
    ),
  });
  t.like(await c.request('GET', '/api/v1/nodes?watch=true'), { status: 405, body: { reason: 'MethodNotAllowed' } });
  t.like(await c.request('POST', '/api/v1/nodes', { body: {} }), { status: 405 });
});
