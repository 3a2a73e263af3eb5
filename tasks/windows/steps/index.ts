// The steps of the step folders (tasks/windows/steps/<step>/), one line each; re-exported by
// tasks/windows/index.ts (play/windows). Their remote halves are listed in ./remote.ts.
export * from './ntp-servers/step.js';
export * from './time-zone/step.js';
