// The Linux steps. Each factory normalizes its options once (a wrong option is a StepOptionError
// naming the field), does no I/O, and returns a Step (see runner/core/step.ts).
export {
  command,
  type CommandActual,
  type CommandDesired,
  type CommandOptions,
  type CommandOutputs,
} from './command.js';
export { directory, type DirectoryDesired, type DirectoryOptions } from './directory.js';
export { file, type FileDesired, type FileOptions } from './file.js';
export { lineInFile, type LineInFileDesired, type LineInFileOptions } from './line-in-file.js';
export { sysctl, type SysctlActual, type SysctlDesired, type SysctlOptions } from './sysctl.js';
export { diffUser, parseUserProbe, user, type UserActual, type UserDesired, type UserOptions } from './user.js';
export {
  keepalivedConf,
  type KeepalivedConfActual,
  type KeepalivedConfDesired,
  type KeepalivedConfOptions,
} from './keepalived-conf.js';
export {
  maskAuthPass,
  renderKeepalivedConf,
  renderKeepalivedConfMasked,
  validateKeepalivedConfig,
  type KeepalivedConfig,
  type KeepalivedGlobalDefs,
  type KeepalivedInstance,
  type KeepalivedVip,
  type ValidatedKeepalivedConfig,
} from './keepalived-model.js';
export { keepalivedPidfile, type KeepalivedPidfileOptions } from './keepalived-pidfile.js';
export { pkg, type PackageActual, type PackageDesired, type PackageOptions } from './package.js';
export { validatePodCidrs, vipFor, type CheckedPodCidr, type PodCidrNode, type PodVip } from './pod-cidr.js';
export {
  service,
  type ServiceActual,
  type ServiceDesired,
  type ServiceOptions,
  type ServiceOutputs,
} from './service.js';
export {
  backoffMs,
  diffNodeRegistered,
  kubectlNodeRegistered,
  kubectlScript,
  kubectlValue,
  nodePodCidr,
  parseKubectlRun,
  type KubectlNodeActual,
  type KubectlNodeRegisteredDesired,
  type KubectlNodeRegisteredOptions,
  type KubectlNodeRegisteredOutputs,
  type KubectlRun,
  type KubectlValueActual,
  type KubectlValueDesired,
  type KubectlValueOptions,
  type KubectlValueOutputs,
} from './kubectl-fact.js';
