// windows.dockerEngine({ version? }): Docker is installed from PSGallery's DockerMsftProvider (field notes
// A and D: docs/field-notes.md#d-docker-install-and-docker-version), at `version` when given.
// Fields: installed, version. Output: rebootRequired (true after a fresh install, which enables
// the Containers feature: field note A reboots the node then, docs/domain.md#step-5-docker).
//
// Probe: Get-PlayDockerEngine, the raw `docker version` text parsed here (parse/docker-version.ts) and
// whether the docker service exists. The version compared is the engine's (the daemon's) when it
// answers, else the client's; a daemon that does not answer is a warning in the plan (its state is
// a windowsService task's business), not a reason to reinstall.
import { NOOP, type Change, type Fields } from '../../../../runner/core/change.js';
import { z } from 'zod';
import { readOptions } from '../../../../runner/core/step-options.js';
import type { Remote, Step } from '../../../../runner/core/step.js';
import { engineVersion, parseDockerVersion } from '../../parse/docker-version.js';
import { invoke, probeCall } from '../../remote/calls.js';
import type { FunctionResult } from '../step-remote.js';
import { DOCKER_ENGINE_REMOTE as REMOTE } from './remote.js';

const KIND = 'windows.dockerEngine';

const Options = z.strictObject({
  version: z
    .string()
    .refine((v) => /^[0-9]+\.[0-9]+\.[0-9]+(?:[-.+][A-Za-z0-9.-]+)?$/.test(v), {
      error: (iss) => `must be a Docker version such as 19.03.5, got ${JSON.stringify(iss.input)}`,
    })
    .optional()
    .transform((v) => v ?? null),
});

export type DockerEngineOptions = z.input<typeof Options>;
export type DockerEngineDesired = Readonly<z.output<typeof Options>>;

export interface DockerEngineActual {
  readonly serviceExists: boolean;
  readonly clientVersion: string | null;
  /** null when the daemon did not answer. */
  readonly engineVersion: string | null;
  /** What docker printed besides its sections (the error when the daemon is down). */
  readonly problems: readonly string[];
}

export interface DockerEngineOutputs {
  rebootRequired: boolean;
}

function readActual({
  dockerVersion: text,
  serviceExists,
}: FunctionResult<(typeof REMOTE)['Get-PlayDockerEngine']>): DockerEngineActual {
  if (text === null) return { serviceExists, clientVersion: null, engineVersion: null, problems: [] };
  const v = parseDockerVersion(text);
  return {
    serviceExists,
    clientVersion: v.client.Version ?? null,
    engineVersion: engineVersion(v),
    problems: v.errors,
  };
}

function diffDockerEngine(d: Readonly<DockerEngineDesired>, a: DockerEngineActual | null): Change {
  if (a === null) throw new Error('a docker probe always reports a state');
  const installed = a.serviceExists && a.clientVersion !== null;
  if (!installed) {
    const before =
      a.clientVersion === null
        ? a.serviceExists
          ? 'service without docker.exe'
          : 'absent'
        : 'docker.exe without a docker service';
    return {
      action: 'create',
      fields: ['installed'],
      before: { installed: before },
      after: { installed: d.version ?? 'latest' },
    };
  }
  const warnings =
    a.engineVersion === null
      ? [`the docker daemon did not answer${a.problems.length ? `: ${a.problems.join(' ').slice(0, 300)}` : ''}`]
      : [];
  const running = a.engineVersion ?? a.clientVersion;
  if (d.version === null || d.version === running) return warnings.length ? { ...NOOP, warnings } : NOOP;
  const before: Fields = { version: running },
    after: Fields = { version: d.version };
  return { action: 'update', fields: ['version'], before, after, ...(warnings.length ? { warnings } : {}) };
}

export function dockerEngine(
  options: DockerEngineOptions = {},
): Step<DockerEngineDesired, DockerEngineActual, DockerEngineOutputs> {
  const desired: DockerEngineDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `docker engine${desired.version ? ` ${desired.version}` : ''}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(REMOTE['Get-PlayDockerEngine'], {}, readActual),
    diff: diffDockerEngine,
    async apply(
      remote: Remote,
      change: Change,
      _actual: DockerEngineActual | null,
      d: DockerEngineDesired,
    ): Promise<DockerEngineOutputs> {
      if (change.fields.length === 0) return { rebootRequired: false };
      const result = await invoke(
        remote,
        REMOTE['Install-PlayDockerEngine'],
        { version: d.version },
        `${title}: Install-Package docker`,
      );
      return { rebootRequired: result.restartNeeded };
    },
    outputs: (): DockerEngineOutputs => ({ rebootRequired: false }),
  });
}
