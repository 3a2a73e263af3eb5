// The scheduled task step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { SCHEDULED_TASK_REMOTE } from './remote.js';
