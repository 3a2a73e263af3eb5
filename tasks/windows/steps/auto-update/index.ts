// The automatic updates step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { AUTO_UPDATE_REMOTE } from './remote.js';
