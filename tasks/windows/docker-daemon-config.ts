// dockerDaemonConfig({ config }): C:\ProgramData\Docker\config\daemon.json holds this JSON object
// (docs/field-notes.md#a-docker-and-daemonjson: {"bridge": "none", "insecure-registries": [...]}). Field: config. Output: { changed },
// so that a restart task can be triggered by it: a changed daemon.json needs only
// `Restart-Service docker` (field note A), e.g.
//   dockerConfig:  { on: 'windows', step: dockerDaemonConfig({ config }) },
//   dockerRestart: { on: 'windows', triggeredBy: ['dockerConfig'], step: windowsService({ name: 'docker', ..., restart: true }) },
// Compared as JSON (file-content.ts): key order and whitespace are not drift, a file that is not
// valid JSON is. Written pretty-printed (2 spaces), UTF-8 without BOM (dockerd rejects a BOM), via
// Set-PlayFile with the sha256 guard.
import { OptionReader, type Options } from '../../runner/core/options.js';
import { isSecret } from '../../runner/core/secret.js';
import type { Step } from '../../runner/core/step.js';
import {
  contentStep,
  fileDesired,
  type FileContentActual,
  type FileContentDesired,
  type FileContentOutputs,
} from './file-content.js';

export const DAEMON_JSON = 'C:\\ProgramData\\Docker\\config\\daemon.json';

export type DockerDaemonConfigOptions = { config: Record<string, unknown> };

/** Refuses what JSON cannot hold exactly (undefined, functions, NaN, secrets, class instances). */
function checkJson(r: OptionReader, value: unknown, at: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) r.fail(at, `must be a finite number, got ${value}`);
    return;
  }
  if (isSecret(value))
    r.fail(at, 'must not be a secret: daemon.json is shown in plans (use fileContent for secret files)');
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) checkJson(r, v, `${at}[${i}]`);
    return;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) checkJson(r, v, `${at}.${k}`);
    return;
  }
  r.fail(at, `must be a JSON value (string, number, boolean, null, array or plain object), got ${typeof value}`);
}

export function dockerDaemonConfig(
  options: DockerDaemonConfigOptions,
): Step<FileContentDesired, FileContentActual, FileContentOutputs> {
  const r: OptionReader = new OptionReader('windows.dockerDaemonConfig', options as Options);
  r.only(['config']);
  const config = r.opts.config;
  if (
    config === null ||
    typeof config !== 'object' ||
    Array.isArray(config) ||
    Object.getPrototypeOf(config) !== Object.prototype
  ) {
    r.fail(
      'config',
      `must be a JSON object such as { bridge: 'none' }, got ${config === null ? 'null' : Array.isArray(config) ? 'an array' : typeof config}`,
    );
  }
  checkJson(r, config, 'config');
  const content = `${JSON.stringify(config, null, 2)}\n`;
  return contentStep(
    'windows.dockerDaemonConfig',
    `docker ${DAEMON_JSON}`,
    'config',
    fileDesired(r, DAEMON_JSON, content, 'json'),
  );
}
