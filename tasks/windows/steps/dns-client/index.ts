// The DNS client step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { DNS_CLIENT_REMOTE } from './remote.js';
