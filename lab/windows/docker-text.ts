// `docker version` as the simulated Windows node (a test double) prints it: the layout of docs/field-notes.md#d-docker-install-and-docker-version
// (Docker Engine - Enterprise from DockerMsftProvider). 19.03.0's details are the note's; the other
// versions' commit and build dates are placeholders of the same shape.

interface DockerRelease {
  api: string;
  go: string;
  commit: string;
  clientBuilt: string;
  serverBuilt: string;
}

export const DOCKER_RELEASES: Readonly<Record<string, DockerRelease>> = {
  '18.09.11': {
    api: '1.39',
    go: 'go1.10.8',
    commit: 'a0c6a0a1f5',
    clientBuilt: '12/04/2019 18:02:11',
    serverBuilt: '12/04/2019 18:00:27',
  },
  '19.03.0': {
    api: '1.40',
    go: 'go1.12.5',
    commit: '87b1f470ad',
    clientBuilt: '07/16/2019 23:41:30',
    serverBuilt: '07/16/2019 23:39:21',
  },
  '19.03.5': {
    api: '1.40',
    go: 'go1.12.12',
    commit: '2ee0c57608',
    clientBuilt: '11/13/2019 08:00:16',
    serverBuilt: '11/13/2019 07:58:51',
  },
};

/** What Install-Package Docker installs without -RequiredVersion. */
export const LATEST_DOCKER = '19.03.5';

const PIPE = 'http://%2F%2F.%2Fpipe%2Fdocker_engine';

/** `docker pull` with the daemon down: the same error for the CLI's request, POST /images/create?fromImage=NAME&tag=TAG|DIGEST. */
export function pullUnreachable(version: string, name: string, tagOrDigest: string): string {
  const api = (DOCKER_RELEASES[version] ?? DOCKER_RELEASES[LATEST_DOCKER]!).api;
  const query = `fromImage=${encodeURIComponent(name)}&tag=${encodeURIComponent(tagOrDigest)}`;
  return daemonUnreachable(api, `Post ${PIPE}/v${api}/images/create?${query}`);
}

/** The daemon is not reachable (service stopped or not started since the install): field note D's error. */
export function daemonUnreachable(api: string, request = `Get ${PIPE}/v${api}/version`): string {
  return (
    `error during connect: ${request}: open //./pipe/docker_engine: ` +
    'The system cannot find the file specified. In the default daemon configuration on Windows, the docker client must be run elevated to connect. ' +
    'This error may also indicate that the docker daemon is not running.'
  );
}

/**
 * What the steps' Get-PlayDockerEngine returns: docker's stdout (LF line ends, as Go writes them) and,
 * when there is any, a CRLF ([Environment]::NewLine) and its stderr.
 */
export function dockerVersionText(version: string, daemonRunning: boolean): string {
  const r = DOCKER_RELEASES[version] ?? DOCKER_RELEASES[LATEST_DOCKER]!;
  const client = [
    'Client: Docker Engine - Enterprise',
    ` Version:           ${version}`,
    ` API version:       ${r.api}`,
    ` Go version:        ${r.go}`,
    ` Git commit:        ${r.commit}`,
    ` Built:             ${r.clientBuilt}`,
    ' OS/Arch:           windows/amd64',
    ' Experimental:      false',
    '',
  ];
  if (!daemonRunning) return `${client.slice(0, -1).join('\n')}\n\r\n${daemonUnreachable(r.api)}\n`;
  return [
    ...client,
    'Server: Docker Engine - Enterprise',
    ' Engine:',
    `  Version:          ${version}`,
    `  API version:      ${r.api} (minimum version 1.24)`,
    `  Go version:       ${r.go}`,
    `  Git commit:       ${r.commit}`,
    `  Built:            ${r.serverBuilt}`,
    '  OS/Arch:          windows/amd64',
    '  Experimental:     false',
    '',
  ].join('\n');
}
