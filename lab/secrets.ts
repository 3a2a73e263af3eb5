// The lab's secrets: every value its inventory reads from the environment, generated once into the
// lab's env file (lab.env, 0600), which `play` loads whenever the lab's inventory is the one in use
// (runner/cli/inventory-path.ts). So a clean shell runs every shipped playbook against the lab with
// nothing exported; a value already in the environment (or .env) wins over the file.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import type { LabPaths } from './paths.js';
import { writeIfChanged } from './write.js';

/** The environment variables the lab's inventory names, and how each value is made. */
export const LAB_SECRETS = Object.freeze({
  /** The simulated Windows nodes' Administrator password (the simulator reads it at start). */
  PLAY_LAB_WINDOWS_PASSWORD: () => randomBytes(18).toString('base64url'),
  /** keepalived's auth_pass: keepalived reads only its first 8 characters, so 8 it is. */
  VRRP_AUTH_PASS: () => randomBytes(6).toString('base64url'),
  /** The password the lab's become user (playlab, lab/hosts/sudo-users.ts) gives sudo. */
  PLAY_LAB_SUDO_PASSWORD: () => randomBytes(12).toString('base64url'),
});

export type LabSecretName = keyof typeof LAB_SECRETS;
export const WINDOWS_PASSWORD_ENV: LabSecretName = 'PLAY_LAB_WINDOWS_PASSWORD';

function readEnvFile(file: string): Record<string, string> {
  try {
    return parseDotenv(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * The lab's secrets, made where lab.env lacks them (a Windows password kept in an older lab's
 * windows.env is taken over). `created` names the ones made now: a new Windows password means running
 * simulators still have the old one and must be restarted.
 */
export function ensureLabSecrets(paths: Pick<LabPaths, 'env' | 'legacyWindowsEnv'>): {
  values: Record<LabSecretName, string>;
  created: LabSecretName[];
} {
  const known = { ...readEnvFile(paths.legacyWindowsEnv), ...readEnvFile(paths.env) };
  const created: LabSecretName[] = [];
  const values = {} as Record<LabSecretName, string>;
  for (const name of Object.keys(LAB_SECRETS) as LabSecretName[]) {
    const value = known[name];
    if (value) values[name] = value;
    else {
      values[name] = LAB_SECRETS[name]();
      created.push(name);
    }
  }
  writeIfChanged(paths.env, envFileText(paths.env, values), 0o600);
  return { values, created };
}

function envFileText(file: string, values: Record<string, string>): string {
  return [
    "# The play lab's secrets (made once by `play lab up`). play loads this file whenever it uses the lab's",
    `# inventory; a variable already set in the environment or .env wins. For other tools: set -a; . ${file}; set +a`,
    ...Object.entries(values).map(([k, v]) => `${k}=${v}`),
    '',
  ].join('\n');
}
