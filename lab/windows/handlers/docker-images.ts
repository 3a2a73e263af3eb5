// Docker images on the simulated Windows node (a test double). `docker image inspect` answers from
// the local store (dockerImages); `docker pull` fetches from what the reachable registries hold
// (dockerRegistry) and fails with docker's own messages: the daemon down (docs/field-notes.md#d-docker-install-and-docker-version: "error during
// connect"), a plain-HTTP registry that dockerd did not load as insecure when it last started
// (daemon.json is read only then: a changed file needs a restart), a tag the registry lacks.
// References are matched as written (no docker.io/library normalization).
import { pullUnreachable } from '../docker-text.js';
import { WindowsError } from '../errors.js';
import { findService } from '../services.js';
import type { NodeState } from '../state.js';
import type { Handlers } from './types.js';

/** What the steps' functions throw when docker.exe is not installed. */
export const NO_DOCKER_EXE = 'docker.exe was not found: install Docker first';

/** A reference split as docker does: the registry host (first part with a dot or port, or localhost), the name, the tag or digest. */
export function referenceParts(reference: string): { host: string; name: string; tag: string } {
  const at = reference.indexOf('@');
  const rest = at >= 0 ? reference.slice(0, at) : reference;
  const slash = rest.lastIndexOf('/'),
    colon = rest.lastIndexOf(':');
  const name = colon > slash ? rest.slice(0, colon) : rest;
  const tag = at >= 0 ? reference.slice(at + 1) : colon > slash ? rest.slice(colon + 1) : 'latest';
  const first = name.split('/')[0]!;
  const host = name.includes('/') && (/[.:]/.test(first) || first === 'localhost') ? first : 'registry-1.docker.io';
  return { host, name, tag };
}

function daemonRunning(s: NodeState): boolean {
  return s.docker.install === 'installed' && findService(s, 'docker')?.state === 'Running';
}

export const dockerImageHandlers = {
  'Get-PlayDockerImage': (node, { reference }) => {
    const s = node.state;
    if (!daemonRunning(s)) return { daemonRunning: false, image: null };
    const image = s.dockerImages.find((i) => i.reference === reference);
    if (!image) return { daemonRunning: true, image: null };
    // RepoTags: every tag of the same image (a reference pulled by digest is not a tag).
    const repoTags = s.dockerImages
      .filter((i) => i.id === image.id && !i.reference.includes('@'))
      .map((i) => i.reference);
    return { daemonRunning: true, image: { id: image.id, repoTags } };
  },

  'Invoke-PlayDockerPull': (node, { reference }) => {
    const s = node.state;
    if (s.docker.install !== 'installed') throw new WindowsError(NO_DOCKER_EXE);
    const { host, name, tag } = referenceParts(reference);
    if (!daemonRunning(s)) throw new WindowsError(pullUnreachable(s.docker.version ?? '', name, tag));
    // The registry speaks plain HTTP: dockerd tries HTTPS first unless it loaded the host as insecure.
    const http = Object.entries(s.dockerRegistry).some(([ref, r]) => r.http && referenceParts(ref).host === host);
    if (http && !s.dockerLoadedInsecureRegistries.includes(host)) {
      throw new WindowsError(
        `Error response from daemon: Get https://${host}/v2/: http: server gave HTTP response to HTTPS client`,
      );
    }
    const held = s.dockerRegistry[reference];
    if (!held)
      throw new WindowsError(
        `Error response from daemon: manifest for ${reference} not found: manifest unknown: manifest unknown`,
      );
    s.dockerImages = [...s.dockerImages.filter((i) => i.reference !== reference), { reference, id: held.id }];
    return { id: held.id };
  },
} satisfies Partial<Handlers>;
