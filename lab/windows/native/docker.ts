// docker.exe on the simulated node: `docker version` (texts of docker-text.ts, as in
// docs/field-notes.md#d-docker-install-and-docker-version), `docker image inspect [--format T] REF`
// and `docker pull REF`, with docker's own outputs and exit codes. The client reaches dockerd only
// while the docker service runs (otherwise field note D's "error during connect", for the request
// the command makes). A pull fetches from what the reachable registries hold (dockerRegistry); a
// plain-HTTP registry works only if dockerd loaded it as insecure when it last started (daemon.json
// is read then). References are matched as written (no docker.io/library normalization).
import { createHash } from 'node:crypto';
import {
  daemonUnreachable,
  DOCKER_RELEASES,
  dockerVersionText,
  LATEST_DOCKER,
  pullUnreachable,
} from '../docker-text.js';
import type { NodeState } from '../node-state.js';
import { dockerDaemonRunning } from '../surface/docker.js';
import type { NativeProgram, NativeResult } from './program.js';

const PIPE = 'http://%2F%2F.%2Fpipe%2Fdocker_engine';

/** Go writes LF; an error goes to stderr with exit code 1. */
const fail = (stderr: string, stdout = ''): NativeResult => ({ code: 1, stdout, stderr: `${stderr}\n` });

/** A reference split as docker does: the registry host (first part with a dot or port, or localhost), the name, the tag or digest. */
export function referenceParts(reference: string): { host: string; name: string; tag: string } {
  const at = reference.indexOf('@');
  const rest = at >= 0 ? reference.slice(0, at) : reference;
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  const name = colon > slash ? rest.slice(0, colon) : rest;
  const tag = at >= 0 ? reference.slice(at + 1) : colon > slash ? rest.slice(colon + 1) : 'latest';
  const first = name.split('/')[0]!;
  const host = name.includes('/') && (/[.:]/.test(first) || first === 'localhost') ? first : 'registry-1.docker.io';
  return { host, name, tag };
}

const apiOf = (s: NodeState) => (DOCKER_RELEASES[s.docker.version ?? ''] ?? DOCKER_RELEASES[LATEST_DOCKER]!).api;

function version(s: NodeState): NativeResult {
  const running = dockerDaemonRunning(s);
  const text = dockerVersionText(s.docker.version ?? LATEST_DOCKER, running);
  if (running) return { code: 0, stdout: text };
  // The client part on stdout, the daemon's absence on stderr (dockerVersionText joins them with CRLF).
  const [client, error] = text.split('\n\r\n') as [string, string];
  return { code: 1, stdout: `${client}\n`, stderr: error };
}

function inspect(s: NodeState, args: readonly string[]): NativeResult {
  let format: string | null = null;
  const refs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--format' || a === '-f') format = args[++i] ?? '';
    else if (a.startsWith('--format=')) format = a.slice('--format='.length);
    else refs.push(a);
  }
  if (refs.length === 0) return fail('"docker image inspect" requires at least 1 argument.');
  if (format !== null && format !== '{{.Id}}' && format !== '{{json .}}')
    throw new Error(`the simulated docker.exe does not model --format ${format} (lab/windows/native/docker.ts)`);
  const empty = format === null ? '[]\n' : '\n';
  if (!dockerDaemonRunning(s)) {
    const errors = refs.map((r) => daemonUnreachable(apiOf(s), `Get ${PIPE}/v${apiOf(s)}/images/${r}/json`));
    return fail(errors.join('\n'), empty);
  }
  const found: object[] = [];
  const errors: string[] = [];
  for (const ref of refs) {
    const image = s.dockerImages.find((i) => i.reference === ref || i.id === ref);
    if (!image) {
      errors.push(`Error: No such image: ${ref}`);
      continue;
    }
    const same = s.dockerImages.filter((i) => i.id === image.id);
    found.push({
      Id: image.id,
      RepoTags: same.filter((i) => !i.reference.includes('@')).map((i) => i.reference),
      RepoDigests: same.filter((i) => i.reference.includes('@')).map((i) => i.reference),
      Parent: '',
      Comment: '',
      Architecture: 'amd64',
      Os: 'windows',
      OsVersion: `${s.os.version}.${s.os.revision}`,
      RootFS: { Type: 'layers', Layers: [image.id] },
    });
  }
  let stdout: string;
  if (found.length === 0) stdout = empty;
  else if (format === null) stdout = `${JSON.stringify(found, null, 4)}\n`;
  else if (format === '{{.Id}}') stdout = found.map((f) => `${(f as { Id: string }).Id}\n`).join('');
  else stdout = found.map((f) => `${JSON.stringify(f)}\n`).join('');
  return errors.length > 0 ? fail(errors.join('\n'), stdout) : { code: 0, stdout };
}

function pull(s: NodeState, reference: string | undefined): NativeResult {
  if (reference === undefined) return fail('"docker pull" requires exactly 1 argument.');
  const { host, name, tag } = referenceParts(reference);
  if (name !== name.toLowerCase()) return fail('invalid reference format: repository name must be lowercase');
  if (!dockerDaemonRunning(s)) return fail(pullUnreachable(s.docker.version ?? '', name, tag));
  // The registry speaks plain HTTP: dockerd tries HTTPS first unless it loaded the host as insecure.
  const http = Object.entries(s.dockerRegistry).some(([ref, r]) => r.http && referenceParts(ref).host === host);
  if (http && !s.dockerLoadedInsecureRegistries.includes(host))
    return fail(`Error response from daemon: Get https://${host}/v2/: http: server gave HTTP response to HTTPS client`);
  const held = s.dockerRegistry[reference];
  if (!held)
    return fail(`Error response from daemon: manifest for ${reference} not found: manifest unknown: manifest unknown`);
  const had = s.dockerImages.find((i) => i.reference === reference);
  s.dockerImages = [...s.dockerImages.filter((i) => i.reference !== reference), { reference, id: held.id }];
  const digest = `sha256:${createHash('sha256').update(held.id).digest('hex')}`;
  const path = host === 'registry-1.docker.io' ? name : name.slice(host.length + 1);
  const status =
    had?.id === held.id ? `Image is up to date for ${reference}` : `Downloaded newer image for ${reference}`;
  return {
    code: 0,
    stdout: [`${tag}: Pulling from ${path}`, `Digest: ${digest}`, `Status: ${status}`, reference, ''].join('\n'),
  };
}

export const docker: NativeProgram = (node, argv) => {
  const s = node.state;
  const [command = '', ...rest] = argv;
  if (command === 'version') return version(s);
  if (command === 'pull')
    return pull(
      s,
      rest.find((a) => !a.startsWith('-')),
    );
  if (command === 'image' && rest[0] === 'inspect') return inspect(s, rest.slice(1));
  if (command === 'image' && rest[0] === 'pull')
    return pull(
      s,
      rest.slice(1).find((a) => !a.startsWith('-')),
    );
  throw new Error(`the simulated docker.exe does not model '${argv.join(' ')}' (lab/windows/native/docker.ts)`);
};
