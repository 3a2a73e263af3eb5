// The lab, like Molecule: real Linux hosts (network namespaces, one sshd each) to try playbooks on.
// `play lab up|down|status|inventory` (runner/cli/lab-command.ts) and the tests' ensureLab use this.
export { labUp } from './up.js';
export type { LabUpOptions } from './up.js';
export { labDown } from './down.js';
export { labInventoryPath, labStatus } from './status.js';
export type { LabHostStatus, LabStatus } from './status.js';
export type { LabHostState, LabState } from './lab-state.js';
export type { LabOptions } from './paths.js';
export { DEFAULT_LAB_DIR } from './paths.js';
export type { LabCounts, LabGroup } from './hosts/topology.js';
export { resetWindowsNode, setWindowsNodeFaults } from './windows-reset.js';
export type { WindowsNodeReset } from './windows-reset.js';
export type { WindowsNodeFaults } from './windows/faults.js';
