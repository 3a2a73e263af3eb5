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
import { z } from 'zod';
import { readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_DOCKER_IMAGE, INVOKE_DOCKER_PULL } from './remote/ps-docker.js';
import { imageReference } from './options/image-reference.js';

const KIND = 'windows.dockerImage';

const Options = z.strictObject({ reference: imageReference() });

export type DockerImageOptions = z.input<typeof Options>;
export type DockerImageDesired = Readonly<z.output<typeof Options>>;

/** image null: absent, or the daemon did not answer. */
export type DockerImageActual = Readonly<ResultOf<'Get-PlayDockerImage'>>;

export interface DockerImageOutputs {
  /** The image ID (sha256:<hex>); null only before the image is present. */
  id: string | null;
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
  const desired: DockerImageDesired = Object.freeze(readOptions(KIND, Options, options));
  const { reference } = desired;
  const title = `docker image ${reference}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_DOCKER_IMAGE, { reference }, (inspected) => inspected),
    diff: diffDockerImage,
    async apply(
      remote: Remote,
      change: Change,
      _actual: DockerImageActual | null,
      d: DockerImageDesired,
    ): Promise<Partial<DockerImageOutputs>> {
      if (!change.fields.includes('image')) return {};
      const pulled = await invoke(remote, INVOKE_DOCKER_PULL, { reference: d.reference }, `${title}: docker pull`);
      return { id: pulled.id };
    },
    outputs: (_d: Readonly<DockerImageDesired>, a: DockerImageActual | null): DockerImageOutputs => ({
      id: a?.image?.id ?? null,
    }),
  });
}
