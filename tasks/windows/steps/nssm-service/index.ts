// The nssm service step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { NSSM_SERVICE_REMOTE } from './remote.js';
