// The step folders (tasks/windows/steps/<step>/: docs/adding-a-step.md), one line each. A folder's
// index.ts exports its factory and types, re-exported by tasks/windows/index.ts (play/windows), and
// its remote half `<STEP>_REMOTE`, which remote/contract.ts and remote/functions.ts merge.
export * from './ntp-servers/index.js';
export * from './time-zone/index.js';
export * from './scheduled-task/index.js';
