// The HNS host endpoint step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { HNS_HOST_ENDPOINT_REMOTE } from './remote.js';
