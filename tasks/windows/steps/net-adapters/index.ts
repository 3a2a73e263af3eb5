// The network adapters step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { NET_ADAPTERS_REMOTE } from './remote.js';
