// dockerImage({ reference }): a Docker image is present on the node, pulled ahead of time
// (docs/domain.md#step-10-pause-image: the pause image, `repo.mylan.k8s:8888/q1winpause:10.0.17763.973`, pre-pulled so that the
// first pod does not wait for it, and so that a registry or daemon.json problem shows up here, named,
// instead of as a pod stuck in ContainerCreating). Field: image. Output: { id } (sha256:<hex>).
//
// Probe: Get-PlayDockerImage (`docker image inspect`). Present is enough: a tag is trusted, so an
// image pushed again under the same tag is not pulled again (pin a digest to follow content). A
// daemon that does not answer reports the image absent, and the plan says the pull will fail.
// Apply: Invoke-PlayDockerPull; docker's own error text (registry, manifest, daemon) is the message.
// Windows images are large: give the task a timeoutSec that fits the registry's speed.
import { NOOP, type Change } from '../../runner/core/change.js';
import { OptionReader, type Options } from '../../runner/core/options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_DOCKER_IMAGE, INVOKE_DOCKER_PULL } from './remote/ps-docker.js';

export type DockerImageOptions = { reference: string };

export interface DockerImageDesired {
  readonly reference: string;
}

/** image null: absent, or the daemon did not answer. */
export type DockerImageActual = Readonly<ResultOf<'Get-PlayDockerImage'>>;

export interface DockerImageOutputs {
  /** The image ID (sha256:<hex>); null only before the image is present. */
  id: string | null;
}

const KIND = 'windows.dockerImage';

// distribution/reference's grammar (what `docker pull` accepts), piece by piece for clear errors.
const PATH_COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN =
  /^(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*(?::([0-9]{1,5}))?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/** Checks a reference (`[host[:port]/]path[:tag][@sha256:<hex>]`), failing on `field` with what is wrong. */
export function imageReference(r: OptionReader, field: string): string {
  const ref = r.nonEmpty(field);
  const shown = JSON.stringify(ref.length > 80 ? `${ref.slice(0, 80)}…` : ref);
  const bad = (why: string): never => r.fail(field, `${why}, got ${shown}`);
  if (/[\s"'`\u0000-\u001f]/.test(ref)) bad('must be an image reference without spaces, quotes or control characters');
  const [rest, digest, ...more] = ref.split('@');
  if (more.length || (digest !== undefined && !DIGEST.test(digest)))
    bad('must end in at most one digest, @sha256:<64 lowercase hex digits>');
  const slash = rest!.lastIndexOf('/'),
    colon = rest!.lastIndexOf(':');
  const tag = colon > slash ? rest!.slice(colon + 1) : undefined;
  const name = tag === undefined ? rest! : rest!.slice(0, colon);
  if (tag !== undefined && !TAG.test(tag))
    bad('has a tag that is not 1-128 letters, digits, _ . - (not starting with . or -)');
  if (name.length > 255) bad('has a repository name longer than 255 characters');
  const parts = name.split('/');
  // Like docker: the first part is a registry host when it has a dot or a port, or is localhost.
  if (parts.length > 1 && (/[.:]/.test(parts[0]!) || parts[0] === 'localhost')) {
    const host = DOMAIN.exec(parts.shift()!);
    if (!host || (host[1] !== undefined && (Number(host[1]) < 1 || Number(host[1]) > 65535)))
      bad('has a registry that is not host[:port]');
  }
  for (const p of parts) {
    if (PATH_COMPONENT.test(p)) continue;
    bad(
      PATH_COMPONENT.test(p.toLowerCase())
        ? 'must have a lowercase repository path'
        : 'has a repository path part that is not lowercase letters and digits joined by . _ __ or -',
    );
  }
  // Without a tag docker pulls :latest, which moves: a node must get the image the cluster was built for.
  if (tag === undefined && digest === undefined)
    bad(
      'needs an explicit tag (such as :10.0.17763.973) or @sha256 digest: without one docker pulls :latest, which is not pinned',
    );
  return ref;
}

export function diffDockerImage(d: Readonly<DockerImageDesired>, a: DockerImageActual | null): Change {
  if (a === null) throw new Error('a docker image probe always reports a state');
  if (a.image !== null) return NOOP;
  const warnings = a.daemonRunning
    ? []
    : ['docker is not running on the host: the pull will fail unless docker is started first'];
  return {
    action: 'create',
    fields: ['image'],
    before: null,
    after: { image: d.reference },
    ...(warnings.length ? { warnings } : {}),
  };
}

export function dockerImage(
  options: DockerImageOptions,
): Step<DockerImageDesired, DockerImageActual, DockerImageOutputs> {
  const r: OptionReader = new OptionReader(KIND, options as Options);
  r.only(['reference']);
  const reference = imageReference(r, 'reference');
  const desired: DockerImageDesired = Object.freeze({ reference });
  const title = `docker image ${reference}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_DOCKER_IMAGE, { reference }, (inspected) => inspected),
    diff: diffDockerImage,
    async apply(remote: Remote, change: Change): Promise<Partial<DockerImageOutputs>> {
      if (!change.fields.includes('image')) return {};
      const pulled = await invoke(remote, INVOKE_DOCKER_PULL, { reference }, `${title}: docker pull`);
      return { id: pulled.id };
    },
    outputs: (_d: Readonly<DockerImageDesired>, a: DockerImageActual | null): DockerImageOutputs => ({
      id: a?.image?.id ?? null,
    }),
  });
}
