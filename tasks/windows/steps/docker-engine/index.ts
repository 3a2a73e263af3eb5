// The Docker engine step folder: its factory (play/windows) and its remote half (the contract, the functions registry).
export * from './step.js';
export { DOCKER_ENGINE_REMOTE } from './remote.js';
