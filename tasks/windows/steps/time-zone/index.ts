// The time zone step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { TIME_ZONE_REMOTE } from './remote.js';
