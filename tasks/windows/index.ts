// The Windows steps. Each factory normalizes its options once (a wrong option is a StepOptionError
// naming the field), does no I/O on a host, and returns a Step whose remote half is PowerShell
// functions of the JSON contract (contract.ts, functions.ts).
export { dockerDaemonConfig, DAEMON_JSON, type DockerDaemonConfigOptions } from './docker-daemon-config.js';
export {
  dockerImage,
  type DockerImageActual,
  type DockerImageDesired,
  type DockerImageOptions,
  type DockerImageOutputs,
} from './docker-image.js';
export { engineVersion, parseDockerVersion, type DockerVersion } from './parse/docker-version.js';
export {
  fileContent,
  type FileContentActual,
  type FileContentDesired,
  type FileContentOptions,
  type FileContentOutputs,
} from './file-content.js';
export {
  uploadedFile,
  type UploadedFileDesired,
  type UploadedFileOptions,
  type UploadedFileOutputs,
} from './uploaded-file.js';
export {
  hnsNetwork,
  type HnsNetworkActual,
  type HnsNetworkDesired,
  type HnsNetworkOptions,
  type HnsNetworkOutputs,
} from './hns-network.js';
export { hotfix, type HotfixActual, type HotfixDesired, type HotfixOptions, type HotfixOutputs } from './hotfix.js';
export {
  hotfixRemoval,
  type HotfixRemovalActual,
  type HotfixRemovalDesired,
  type HotfixRemovalOptions,
  type HotfixRemovalOutputs,
} from './hotfix-removal.js';
export {
  hotfixStage,
  type HotfixStageActual,
  type HotfixStageDesired,
  type HotfixStageOptions,
  type HotfixStageOutputs,
} from './hotfix-stage.js';
export { parseNssmGet, parseNssmList } from './parse/nssm-output.js';
export { osBuild, type OsBuildDesired, type OsBuildOptions, type OsBuildOutputs, type OsInfo } from './os-build.js';
export { reboot, type RebootDesired, type RebootOptions, type RebootOutputs } from './reboot.js';
export { parseScQc, parseScQueryex, type ScQc, type ScQueryex } from './parse/sc-output.js';
export {
  windowsService,
  type WindowsServiceActual,
  type WindowsServiceDesired,
  type WindowsServiceOptions,
  type WindowsServiceOutputs,
} from './windows-service.js';
export { PLAY_FUNCTIONS } from './remote/functions.js';
export {
  powershell,
  type PowershellDesired,
  type PowershellOptions,
  type PowershellOutputs,
  type PowershellParameter,
  type PowershellResult,
} from './powershell.js';
export {
  command,
  type WinCommandDesired,
  type WinCommandOptions,
  type WinCommandOutputs,
  type WinCommandResult,
} from './command.js';
export type { GuardsActual, GuardsDesired } from './run-guards.js';
export { notAsked } from './not-asked.js';
// The step folders (tasks/windows/steps/<step>/: docs/adding-a-step.md).
export * from './steps/index.js';
// Windows steps of one's own (docs/own-repository.md): PowerShell functions with a zod contract.
export { z } from 'zod';
export {
  defineFunction,
  invokeFunction,
  type OpenFunction,
  type OpenFunctionSpec,
  probeFunction,
} from './remote/open-function.js';
export { INVOKE_NATIVE } from './remote/ps-native.js';
// A Windows node's pod network checked after Ready, before its uncordon (docs/rolling.md#pod-network-gate).
// Here, not in the main entry, so that a Linux playbook loads none of the Windows steps.
export { podNetworkGate, type PodNetworkGateOptions } from '../../runner/rolling/gate/pod-network.js';
