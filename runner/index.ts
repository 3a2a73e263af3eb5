// The `play` package's main entry (`import { definePlaybook } from 'play'` in a user's own repository,
// docs/own-repository.md): what a playbook, a step of one's own and a test of a playbook need. The
// steps are in `play/linux` (tasks/linux/index.ts) and `play/windows` (tasks/windows/index.ts); a
// shipped playbook's parts in `play/playbooks/NAME`. Everything here is the compiled dist/ the CLI
// runs, so a playbook and the CLI share one copy of every class (`instanceof InputError`, Secret).

// Playbooks: the DSL and reading host variables in step functions.
export {
  definePlaybook,
  type HostView,
  type OutputsOf,
  type Playbook,
  type StepSource,
  type TaskContext,
  type TaskSpec,
} from './playbook/define.js';
export {
  boolVar,
  hostVar,
  intVar,
  listVar,
  optionalStringVar,
  showValue,
  stringVar,
  type VarsOf,
} from './playbook/host-vars.js';
// An output not known yet (a check run before its task ran): a step function may read around it.
export { UnknownOutput } from './run/context.js';
// IPv4 addresses and CIDRs, as host vars give them.
export { type Cidr, parseCidr, parseIPv4 } from '../tasks/common/ipv4.js';
// Rolling playbooks (docs/rolling.md): kubectl's path on the control host (its host var `kubectl`).
export { kubectlOf } from './rolling/cluster.js';

// Errors a user can act on (the CLI's exit codes: UsageError 64, InputError and its kinds 65), secrets.
export { InputError, InventoryError, PlayError, RemoteError, StepOptionError, UsageError } from './core/errors.js';
export { isSecret, redact, Secret } from './core/secret.js';

// Writing a step (docs/adding-a-step.md): the model, the diff, quoting, option checks.
export {
  type AnyStep,
  applyFields,
  type ExecOptions,
  type ExecResult,
  type Probe,
  type Remote,
  type Step,
} from './core/step.js';
export { type Action, type Change, diffFields, type Fields, NOOP } from './core/change.js';
export { joinScripts, ps, raw, Script, sh, type Shell } from './core/quote.js';
export {
  absolutePath,
  describeValue,
  filePath,
  fileMode,
  integer,
  nonEmpty,
  oneOf,
  principal,
  readOptions,
  secret,
  stringOrSecret,
} from './core/step-options.js';
// One zod for play and a user's steps, so a schema built with it is the one readOptions reads.
export { z } from 'zod';
export { mustRun } from './core/remote.js';

// Testing a playbook without any host: the inventory, the compiled graph, the steps as built before a run.
export { loadInventory } from './inventory/load.js';
export type { Host, Inventory, OsFamily } from './inventory/model.js';
export { type CompileOptions, compileGraph, type TaskGraph, type TaskNode, taskOrder } from './playbook/compile.js';
export { nodeGraphText, taskGraphText } from './playbook/graph-text.js';
export { prebuildSteps } from './run/run-graph.js';

// Testing a step of one's own on a host (docs/own-repository.md): the host as a Remote, and the step's
// three runs there (check reports the change, apply makes it, a second run changes nothing).
export { type OpenRemote, openRemote } from './testing/open-remote.js';
export { planOn, ThreeRunsError, type ThreeRunsResult, threeRuns } from './testing/three-runs.js';
