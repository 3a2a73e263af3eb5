// The step folders (tasks/windows/steps/<step>/: docs/adding-a-step.md), one line each. A folder's
// index.ts exports its factory and types, re-exported by tasks/windows/index.ts (play/windows), and
// its remote half `<STEP>_REMOTE`, which remote/contract.ts and remote/functions.ts merge.
export * from './ntp-servers/index.js';
export * from './time-zone/index.js';
export * from './scheduled-task/index.js';
export * from './auto-update/index.js';
export * from './firewall-rule/index.js';
export * from './registry-value/index.js';
export * from './windows-feature/index.js';
export * from './nssm-service/index.js';
export * from './docker-engine/index.js';
export * from './dns-client/index.js';
export * from './net-adapters/index.js';
export * from './network-cleanup/index.js';
export * from './hns-host-endpoint/index.js';
