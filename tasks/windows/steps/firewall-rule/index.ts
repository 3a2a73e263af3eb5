// The firewall rule step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { FIREWALL_RULE_REMOTE } from './remote.js';
