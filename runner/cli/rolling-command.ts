// `play PLAYBOOK` for a playbook that declares `rolling` (play hotfix-windows), or any playbook with
// --serial, --resume or --stage: the command line's side of a rolling run (runner/rolling/run/): the
// flags a resume refuses, and how -e, the key files and --report are read and checked.
import { flagOf } from './coerce.js';
import { parseExtraVars } from './extra-vars.js';
import type { RollingTarget } from '../rolling/run/options.js';
import { rollingRun } from '../rolling/run/rolling-run.js';
import type { RollingArgs } from './run-args.js';
import { checkKeyFiles, checkReportFile } from './run-checks.js';

export type { RollingTarget } from '../rolling/run/options.js';

export async function rollingCommand(args: RollingArgs, target: RollingTarget): Promise<number> {
  return rollingRun(
    args,
    {
      resumeRefuses: resumeRefuses(args),
      extraVarsOf: (texts) => parseExtraVars(texts, process.env, args.vault),
      checkBeforeHosts: (hosts) => {
        checkKeyFiles(hosts);
        if (args.report) checkReportFile(args.report);
      },
    },
    target,
  );
}

/** The options given that a resume would not use: it continues with those its run started with. */
function resumeRefuses(args: RollingArgs): string[] {
  return [
    ...Object.entries(args.overrides)
      // --notify is where this invocation's notices go, not an option of the run: a resume may name one.
      .filter(([k, v]) => v !== undefined && k !== 'notify')
      .map(([k]) => flagOf(k)),
    ...(args.limit !== undefined ? ['--limit'] : []),
    ...(args.extraVars.length ? ['-e'] : []),
  ];
}
