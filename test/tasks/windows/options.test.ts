// Option errors of every Windows step: each names the step kind and the field and says what was
// expected; and what normalization makes of good options. A step folder's are in its own test file
// (tasks/windows/steps/<step>/*.test.ts).
// Long because it is a table: one row per option error of every Windows step.
import test from 'ava';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { StepOptionError } from '../../../runner/core/errors.js';
import { Secret } from '../../../runner/core/secret.js';
import * as w from '../../../tasks/windows/index.js';

type Factory = (o: any) => unknown;
const NET = {
  name: 'l2bridge',
  type: 'L2Bridge',
  addressPrefix: '10.160.11.0/24',
  gateway: '10.160.11.1',
  adapterName: 'eth1',
};
const SVC = { name: 'kubelet', binPath: 'C:\\k\\kubelet.exe' };

const errors: { make: Factory; options: unknown; kind: string; field: string; message: RegExp }[] = [
  { make: w.hotfix, options: 'KB4549949', kind: 'windows.hotfix', field: '(options)', message: /must be an object/ },
  {
    make: w.hotfix,
    options: { kb: '4549949', msuPath: 'C:\\k\\a.msu' },
    kind: 'windows.hotfix',
    field: 'kb',
    message: /KB number such as KB4549949/,
  },
  {
    make: w.hotfix,
    options: { kb: 'KB4549949', msuPath: 'k\\a.msu' },
    kind: 'windows.hotfix',
    field: 'msuPath',
    message: /absolute Windows path/,
  },
  {
    make: w.hotfix,
    options: { kb: 'KB4549949', msuPath: 'C:\\k\\a.cab' },
    kind: 'windows.hotfix',
    field: 'msuPath',
    message: /\.msu file/,
  },
  {
    make: w.hotfix,
    options: { kb: 'KB4549949', msuPath: 'C:\\k\\a.msu', notApplicable: 'ignore' },
    kind: 'windows.hotfix',
    field: 'notApplicable',
    message: /'fail' or 'satisfied'/,
  },
  {
    make: w.hotfix,
    options: { kb: 'KB4549949', msuPath: 'C:\\k\\a.msu', restart: true },
    kind: 'windows.hotfix',
    field: 'restart',
    message: /not an option of windows\.hotfix/,
  },
  {
    make: w.osBuild,
    options: { version: '17763', revision: 1158 },
    kind: 'windows.osBuild',
    field: 'version',
    message: /major\.minor\.build/,
  },
  {
    make: w.osBuild,
    options: { version: '10.0.17763', revision: '1158' },
    kind: 'windows.osBuild',
    field: 'revision',
    message: /must be an integer/,
  },
  {
    make: w.dockerImage,
    options: {},
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /must be a string, got nothing/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'repo.mylan.k8s:8888/q1winpause' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /needs an explicit tag .* pulls :latest, which is not pinned/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'repo.mylan.k8s:8888/Q1WinPause:1809' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /lowercase repository path/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'pause:1809 ; docker rm -f x' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /without spaces, quotes/,
  },
  {
    make: w.dockerImage,
    options: { reference: "pause:1809'$(reboot)" },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /without spaces, quotes/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'pause:-x' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /has a tag that is not/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'pause:1809@sha256:abc' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /@sha256:<64 lowercase hex digits>/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'repo.mylan.k8s:99999/pause:1809' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /registry that is not host\[:port\]/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'repo_x.k8s:8888/pause:1809' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /registry that is not host\[:port\]/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'repo.mylan.k8s:8888//pause:1809' },
    kind: 'windows.dockerImage',
    field: 'reference',
    message: /path part that is not/,
  },
  {
    make: w.dockerImage,
    options: { reference: 'q1winpause:10.0.17763.973', pull: 'always' },
    kind: 'windows.dockerImage',
    field: 'pull',
    message: /not an option of windows\.dockerImage/,
  },
  {
    make: w.dockerDaemonConfig,
    options: { config: '{"bridge":"none"}' },
    kind: 'windows.dockerDaemonConfig',
    field: 'config',
    message: /JSON object/,
  },
  {
    make: w.dockerDaemonConfig,
    options: { config: { a: { b: NaN } } },
    kind: 'windows.dockerDaemonConfig',
    field: 'config.a.b',
    message: /finite number/,
  },
  {
    make: w.dockerDaemonConfig,
    options: { config: { a: [new Date(0)] } },
    kind: 'windows.dockerDaemonConfig',
    field: 'config.a[0]',
    message: /JSON value/,
  },
  {
    make: w.dockerDaemonConfig,
    options: { config: { token: new Secret('x', 'env:X') } },
    kind: 'windows.dockerDaemonConfig',
    field: 'config.token',
    message: /must not be a secret/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a' },
    kind: 'windows.fileContent',
    field: 'content',
    message: /is required/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a', content: 'a', localFile: '/x' },
    kind: 'windows.fileContent',
    field: 'localFile',
    message: /cannot be combined with content/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a', content: 'a', vars: {} },
    kind: 'windows.fileContent',
    field: 'vars',
    message: /only used with template/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a', content: '{', format: 'json' },
    kind: 'windows.fileContent',
    field: 'content',
    message: /not valid JSON/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a', content: 'a', format: 'yaml' },
    kind: 'windows.fileContent',
    field: 'format',
    message: /'text' or 'json'/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a', localFile: '/nonexistent/play-file' },
    kind: 'windows.fileContent',
    field: 'localFile',
    message: /cannot be read: ENOENT/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\..\\a', content: '' },
    kind: 'windows.fileContent',
    field: 'path',
    message: /'\.' or '\.\.'/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a?b', content: '' },
    kind: 'windows.fileContent',
    field: 'path',
    message: /does not allow/,
  },
  {
    make: w.fileContent,
    options: { path: '\\\\server\\share\\a', content: '' },
    kind: 'windows.fileContent',
    field: 'path',
    message: /absolute Windows path/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\', content: '' },
    kind: 'windows.fileContent',
    field: 'path',
    message: /below the drive/,
  },
  {
    make: w.fileContent,
    options: { path: 'C:\\k\\a. ', content: '' },
    kind: 'windows.fileContent',
    field: 'path',
    message: /ending in a space or dot/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, type: 'Overlay' },
    kind: 'windows.hnsNetwork',
    field: 'type',
    message: /'L2Bridge'/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, addressPrefix: '10.160.11.5/24' },
    kind: 'windows.hnsNetwork',
    field: 'addressPrefix',
    message: /host bits set: the network is 10\.160\.11\.0\/24/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, addressPrefix: '10.160.11.0/33' },
    kind: 'windows.hnsNetwork',
    field: 'addressPrefix',
    message: /IPv4 CIDR block/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, gateway: '10.160.12.1' },
    kind: 'windows.hnsNetwork',
    field: 'gateway',
    message: /10\.160\.12\.1 is not inside addressPrefix 10\.160\.11\.0\/24/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, gateway: '10.160.11.255' },
    kind: 'windows.hnsNetwork',
    field: 'gateway',
    message: /broadcast address/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, gateway: '10.160.011.1' },
    kind: 'windows.hnsNetwork',
    field: 'gateway',
    message: /IPv4 address/,
  },
  {
    make: w.hnsNetwork,
    options: { ...NET, adapterName: 'eth1"' },
    kind: 'windows.hnsNetwork',
    field: 'adapterName',
    message: /adapter name/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, name: 'kube proxy' },
    kind: 'windows.service',
    field: 'name',
    message: /service name/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, binPath: 'C:\\k\\kubelet.exe\r\n--x' },
    kind: 'windows.service',
    field: 'binPath',
    message: /one line/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, binPath: ' C:\\k\\kubelet.exe' },
    kind: 'windows.service',
    field: 'binPath',
    message: /start or end with spaces/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, startMode: 'automatic' },
    kind: 'windows.service',
    field: 'startMode',
    message: /'auto', 'manual' or 'disabled'/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, dependencies: 'docker' },
    kind: 'windows.service',
    field: 'dependencies',
    message: /array of strings/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, dependencies: ['docker', 'Kubelet'] },
    kind: 'windows.service',
    field: 'dependencies[1]',
    message: /depend on itself/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, account: 'x', password: 'hunter2' },
    kind: 'windows.service',
    field: 'password',
    message: /must be a Secret/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, password: new Secret('p', 'env:P') },
    kind: 'windows.service',
    field: 'password',
    message: /only used with account/,
  },
  {
    make: w.windowsService,
    options: { ...SVC, restart: true },
    kind: 'windows.service',
    field: 'restart',
    message: /needs state 'running'/,
  },
  { make: w.reboot, options: {}, kind: 'windows.reboot', field: 'required', message: /rebootRequired output/ },
  { make: w.reboot, options: { required: 'yes' }, kind: 'windows.reboot', field: 'required', message: /true or false/ },
  {
    make: w.reboot,
    options: { required: true, timeoutSec: 5 },
    kind: 'windows.reboot',
    field: 'timeoutSec',
    message: /at least 30/,
  },
  {
    make: w.reboot,
    options: { required: true, waitForServices: ['kube let'] },
    kind: 'windows.reboot',
    field: 'waitForServices[0]',
    message: /service name/,
  },
];

errors.forEach((c, i) => {
  test(`${i + 1}. ${c.kind} rejects ${c.field}: ${c.message.source.slice(0, 50)}`, (t) => {
    const e = t.throws(() => c.make(c.options), { instanceOf: StepOptionError });
    t.like(e, { kind: c.kind, field: c.field });
    t.regex(e!.message, c.message);
    t.true(e!.message.startsWith(`${c.kind}: option '${c.field}' `), e!.message);
  });
});

test('normalization: KB upper-cased, paths with backslashes and an upper-case drive, defaults', (t) => {
  t.deepEqual(w.hotfix({ kb: 'kb4549949', msuPath: 'c:/k/KB.msu' }).desired, {
    kb: 'KB4549949',
    msuPath: 'C:\\k\\KB.msu',
    localMsu: null,
    notApplicable: 'fail',
  });
  t.deepEqual(w.reboot({ required: false }).desired, {
    required: false,
    ifPending: false,
    timeoutSec: 900,
    waitForServices: [],
  });
  const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
  for (const reference of [
    'repo.mylan.k8s:8888/q1winpause:10.0.17763.973',
    'mcr.microsoft.com/windows/nanoserver:1809',
    'nanoserver:1809',
    'localhost/a__b-c.d/e---f:latest',
    `mcr.microsoft.com/windows/nanoserver@${digest}`,
    `registry.lab.test:5000/pause:1809@${digest}`,
    'Repo.MyLan.K8s:8888/pause:v1_2.3-rc',
  ]) {
    t.is(w.dockerImage({ reference }).desired.reference, reference, reference);
  }
  t.is(
    w.dockerImage({ reference: 'registry.lab.test:5000/pause:1809' }).title,
    'docker image registry.lab.test:5000/pause:1809',
  );
  t.true(Object.isFrozen(w.windowsService({ ...SVC, dependencies: ['docker'] }).desired.dependencies));
});

test('fileContent: localFile is read when the step is built (its bytes when not UTF-8); template vars render; a secret var makes a secret', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'play-win-'));
  writeFileSync(join(dir, 'l2bridge.conf'), '{"cniVersion": "0.2.0"}');
  t.like(
    w.fileContent({ path: 'C:\\k\\cni\\config\\l2bridge.conf', localFile: join(dir, 'l2bridge.conf'), format: 'json' })
      .desired,
    { content: '{"cniVersion": "0.2.0"}', json: { cniVersion: '0.2.0' } },
  );
  writeFileSync(join(dir, 'bin'), Buffer.from([0xff, 0xfe, 0]));
  // Bytes that are not UTF-8 text are sent as they are; format json reads text.
  t.deepEqual(
    w.fileContent({ path: 'C:\\k\\x', localFile: join(dir, 'bin') }).desired.content,
    Buffer.from([0xff, 0xfe, 0]),
  );
  t.throws(() => w.fileContent({ path: 'C:\\k\\x', localFile: join(dir, 'bin'), format: 'json' }), {
    message: /not UTF-8 text/,
  });
  const s = w.fileContent({
    path: 'C:\\k\\kubeconfig.conf',
    template: 'token: {{ token }}',
    vars: { token: new Secret('abc123', 'env:T') },
  });
  t.is(String(s.desired.content), '********');
});
