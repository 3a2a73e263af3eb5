// dockerDaemonConfig({ config }): C:\ProgramData\Docker\config\daemon.json holds this JSON object
// (docs/field-notes.md#a-docker-and-daemonjson: {"bridge": "none", "insecure-registries": [...]}). Field: config. Output: { changed },
// so that a restart task can be triggered by it: a changed daemon.json needs only
// `Restart-Service docker` (field note A), e.g.
//   dockerConfig:  { on: 'windows', step: dockerDaemonConfig({ config }) },
//   dockerRestart: { on: 'windows', triggeredBy: ['dockerConfig'], step: windowsService({ name: 'docker', ..., restart: true }) },
// Compared as JSON (file-content.ts): key order and whitespace are not drift, a file that is not
// valid JSON is. Written pretty-printed (2 spaces), UTF-8 without BOM (dockerd rejects a BOM), via
// Set-PlayFile with the sha256 guard.
import { z } from 'zod';
import { readOptions } from '../../runner/core/step-options.js';
import { isSecret } from '../../runner/core/secret.js';
import type { Step } from '../../runner/core/step.js';
import {
  contentStep,
  fileDesired,
  type FileContentActual,
  type FileContentDesired,
  type FileContentOutputs,
} from './file-content.js';
import { accepted, checked, type Refuse } from './options/checked.js';

export const DAEMON_JSON = 'C:\\ProgramData\\Docker\\config\\daemon.json';

/** Refuses what JSON cannot hold exactly (undefined, functions, NaN, secrets, class instances), at its path. */
function checkJson(refuse: Refuse, value: unknown, at: PropertyKey[]): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) refuse(`must be a finite number, got ${value}`, ...at);
    return;
  }
  if (isSecret(value))
    refuse('must not be a secret: daemon.json is shown in plans (use fileContent for secret files)', ...at);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkJson(refuse, v, [...at, i]);
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) checkJson(refuse, v, [...at, k]);
    return;
  }
  refuse(`must be a JSON value (string, number, boolean, null, array or plain object), got ${typeof value}`, ...at);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

const Options = checked(
  z.strictObject({
    config: checked(
      accepted<Record<string, unknown>>(
        isPlainObject,
        (v) =>
          `must be a JSON object such as { bridge: 'none' }, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`,
      ),
      (config, refuse: Refuse) => {
        checkJson(refuse, config, []);
        return config;
      },
    ),
  }),
  ({ config }, refuse: Refuse) =>
    fileDesired(DAEMON_JSON, `${JSON.stringify(config, null, 2)}\n`, 'json', 'config', refuse),
);

export type DockerDaemonConfigOptions = z.input<typeof Options>;

export function dockerDaemonConfig(
  options: DockerDaemonConfigOptions,
): Step<FileContentDesired, FileContentActual, FileContentOutputs> {
  const kind = 'windows.dockerDaemonConfig';
  return contentStep(kind, `docker ${DAEMON_JSON}`, 'config', readOptions(kind, Options, options));
}
