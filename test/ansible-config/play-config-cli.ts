// `play config` and `play --version` run as a user types them. Not test/helpers/play.ts's play(): that one
// checks any --json output against the run report's schema, and `play config --json` prints settings.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { projectRoot } from '../helpers/play.js';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI (dist/) with exactly `env` (no variable of the caller leaks in but PATH), in `cwd`. */
export function playWithEnv(args: string[], env: NodeJS.ProcessEnv, cwd: string): Result {
  const r = spawnSync(process.execPath, [resolve(projectRoot, 'bin/play.mjs'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
