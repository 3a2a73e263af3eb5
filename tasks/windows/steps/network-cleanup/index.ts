// The network clean-up step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { NETWORK_CLEANUP_REMOTE } from './remote.js';
