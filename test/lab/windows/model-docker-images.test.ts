// Docker images on the simulated Windows node (a test double): `docker pull` from the registries the
// node reaches, with docker's own errors (daemon down, a plain-HTTP registry not loaded as insecure,
// a tag the registry lacks), and daemon.json's insecure-registries read when dockerd starts, not
// when the file is written.
import test from 'ava';
import { DAEMON_JSON } from '../../../lab/windows/services.js';
import type { NodeState } from '../../../lab/windows/node-state.js';
import { fixture } from '../../tasks/windows/fixtures.js';
import { model, run } from './helpers.js';

const PAUSE = 'registry.lab.test:5000/pause:1809';
const NANO = 'mcr.microsoft.com/windows/nanoserver:10.0.17763.973';
const HTTPS_ERROR =
  'Error response from daemon: Get https://registry.lab.test:5000/v2/: http: server gave HTTP response to HTTPS client';

/** Containers installed (the reboot after Docker's install is behind us), so the install starts docker at once. */
const containers = (s: NodeState) => {
  s.features['containers']!.installState = 'Installed';
};

async function writeDaemonJson(node: ReturnType<typeof model>, config: object): Promise<void> {
  const current = (await run(node, 'Get-PlayFile', { path: DAEMON_JSON, maxBytes: 0 })) as { sha256: string } | null;
  await run(node, 'Set-PlayFile', {
    path: DAEMON_JSON,
    contentBase64: Buffer.from(JSON.stringify(config)).toString('base64'),
    expectedSha256: current?.sha256 ?? null,
  });
}

test('pull: from the registry (Get then shows the id and tags); no docker.exe, the daemon down, and a tag the registry lacks fail as docker does', async (t) => {
  const node = model(t, containers);
  t.deepEqual(await run(node, 'Get-PlayDockerImage', { reference: NANO }), { daemonRunning: false, image: null });
  t.is(
    (await t.throwsAsync(run(node, 'Invoke-PlayDockerPull', { reference: NANO })))!.message,
    'docker.exe was not found: install Docker first',
  );

  t.deepEqual(await run(node, 'Install-PlayDockerEngine', { version: '19.03.5' }), { restartNeeded: false });
  t.deepEqual(await run(node, 'Get-PlayDockerImage', { reference: NANO }), { daemonRunning: true, image: null });
  const id = node.state.dockerRegistry[NANO]!.id;
  t.regex(id, /^sha256:[0-9a-f]{64}$/);
  t.deepEqual(await run(node, 'Invoke-PlayDockerPull', { reference: NANO }), { id });
  t.deepEqual(await run(node, 'Get-PlayDockerImage', { reference: NANO }), {
    daemonRunning: true,
    image: { id, repoTags: [NANO] },
  });
  t.deepEqual(node.state.dockerImages, [{ reference: NANO, id }]);

  const missing = 'mcr.microsoft.com/windows/nanoserver:10.0.17763.1158';
  t.is(
    (await t.throwsAsync(run(node, 'Invoke-PlayDockerPull', { reference: missing })))!.message,
    `Error response from daemon: manifest for ${missing} not found: manifest unknown: manifest unknown`,
  );

  await run(node, 'Set-PlayServiceState', { name: 'docker', action: 'stop' });
  t.deepEqual(
    await run(node, 'Get-PlayDockerImage', { reference: NANO }),
    { daemonRunning: false, image: null },
    'inspect needs the daemon too',
  );
  const down = (await t.throwsAsync(run(node, 'Invoke-PlayDockerPull', { reference: PAUSE })))!.message;
  // Field note D's text (docs/field-notes.md#d-docker-install-and-docker-version), for the CLI's pull request instead of its version request.
  const seed = fixture('docker-error-during-connect.txt').trim();
  t.is(
    down,
    seed.replace(
      /Get \S+\/v1\.39\/version:/,
      'Post http://%2F%2F.%2Fpipe%2Fdocker_engine/v1.40/images/create?fromImage=registry.lab.test%3A5000%2Fpause&tag=1809:',
    ),
  );
  t.deepEqual(node.state.dockerImages, [{ reference: NANO, id }], 'failed pulls add nothing');
});

test('insecure-registries: dockerd reads daemon.json when it starts; writing the file alone changes nothing until a restart or reboot', async (t) => {
  const node = model(t, containers);
  await run(node, 'Install-PlayDockerEngine', { version: null });
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, []);
  t.is(
    (await t.throwsAsync(run(node, 'Invoke-PlayDockerPull', { reference: PAUSE })))!.message,
    HTTPS_ERROR,
    'the lab registry speaks plain HTTP',
  );
  t.is(
    (await t.throwsAsync(run(node, 'Invoke-PlayDockerPull', { reference: 'registry.lab.test:5000/pause:1903' })))!
      .message,
    HTTPS_ERROR,
    'any tag: the connection fails first',
  );

  await writeDaemonJson(node, { bridge: 'none', 'insecure-registries': ['registry.lab.test:5000'] });
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, [], 'written, not loaded');
  t.is((await t.throwsAsync(run(node, 'Invoke-PlayDockerPull', { reference: PAUSE })))!.message, HTTPS_ERROR);

  await run(node, 'Set-PlayServiceState', { name: 'docker', action: 'restart' });
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, ['registry.lab.test:5000']);
  const id = node.state.dockerRegistry[PAUSE]!.id;
  t.deepEqual(await run(node, 'Invoke-PlayDockerPull', { reference: PAUSE }), { id });
  t.deepEqual(await run(node, 'Get-PlayDockerImage', { reference: PAUSE }), {
    daemonRunning: true,
    image: { id, repoTags: [PAUSE] },
  });

  await writeDaemonJson(node, { bridge: 'none' });
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, ['registry.lab.test:5000'], 'still what dockerd loaded');
  const up = new Promise<void>((resolve) => node.once('up', () => resolve()));
  await run(node, 'Restart-PlayComputer', { delaySeconds: 0 });
  await up;
  t.is(node.state.services['docker']!.state, 'Running', 'docker is Auto: it starts at boot');
  t.deepEqual(node.state.dockerLoadedInsecureRegistries, [], 'the boot loaded the new daemon.json');
  t.deepEqual(
    await run(node, 'Get-PlayDockerImage', { reference: PAUSE }),
    { daemonRunning: true, image: { id, repoTags: [PAUSE] } },
    'pulled images outlive the reboot',
  );
});
