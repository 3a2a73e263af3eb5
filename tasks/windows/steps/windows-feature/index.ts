// The Windows feature and capability step folder: its factories (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { WINDOWS_FEATURE_REMOTE } from './remote.js';
