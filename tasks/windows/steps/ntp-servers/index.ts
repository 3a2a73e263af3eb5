// The NTP servers step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { NTP_SERVERS_REMOTE } from './remote.js';
