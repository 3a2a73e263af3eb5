// `play/testing`: for people who write a test double of a Windows node, or test a step of their own
// against one. A double simulates the far side only and runs play's real client in front of it, so it
// must speak play's wire format exactly: the command line and program play sends, the results it reads
// back, the CLIXML a Windows host writes on stderr, and the JSON contract of the Windows steps' remote
// functions. These are re-exports of the very modules play's transport and steps run, never copies, so
// a double cannot drift from what play sends. The built-in lab (lab/windows/) is written on this alone.

// A step's three runs on a host or a double (also in `play`).
export { type OpenRemote, openRemote } from './open-remote.js';
export { planOn, ThreeRunsError, type ThreeRunsResult, threeRuns } from './three-runs.js';

// The command line: always `POWERSHELL_COMMAND <base64 of UTF-16LE>`, whatever the host's default shell;
// `bootstrapCommand()` is the whole line, whose bootstrap reads the program from stdin and runs it.
export { bootstrapCommand, POWERSHELL as POWERSHELL_COMMAND } from '../transport/powershell/bootstrap.js';
// The program on stdin: `powershellProgram(calls)` is the text play sends for these calls; the calls are
// a JSON literal assigned to PROGRAM_CALLS_VARIABLE (`[{ fn, args }]`), which a double may read to know
// what is called before it runs; `parseProgramResults` reads the program's stdout back into one
// PsCallResult per call, as play does (a parse error, a wrong count or no JSON are errors).
export {
  CALLS_VARIABLE as PROGRAM_CALLS_VARIABLE,
  parseResults as parseProgramResults,
  program as powershellProgram,
} from '../transport/powershell/program.js';
// Errors on stderr: a Windows host writes them as CLIXML; decodeClixml gives the text a person would see.
export { decodeClixml } from '../transport/powershell/clixml.js';
// One call of a remote function (a Script whose shell is `ps`) and what it returned.
export { PsCall, type PsCallResult } from '../core/ps-call.js';

// The contract: every remote function of play's Windows steps with the schemas (zod) of its argument
// and result; validateResult checks a result as the steps do (one line naming the function and field).
export {
  type ArgsOf,
  CONTRACT,
  type PlayFunctionName,
  type RegistryType,
  type ResultOf,
  type ServiceStartMode,
  validateResult,
} from '../../tasks/windows/remote/contract.js';
