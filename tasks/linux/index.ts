// The Linux steps. Each factory normalizes its options once (a wrong option is a StepOptionError
// naming the field), does no I/O, and returns a Step (see runner/core/step.ts).
export { command, type CommandActual, type CommandDesired, type CommandOptions, type CommandOutputs } from './command.js';
export { directory, type DirectoryDesired, type DirectoryOptions } from './directory.js';
export { file, type FileDesired, type FileOptions } from './file.js';
export { lineInFile, type LineInFileDesired, type LineInFileOptions } from './line-in-file.js';
export { sysctl, type SysctlActual, type SysctlDesired, type SysctlOptions } from './sysctl.js';
