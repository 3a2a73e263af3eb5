// The registry value step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { REGISTRY_VALUE_REMOTE } from './remote.js';
