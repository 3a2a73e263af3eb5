// The remote halves of the step folders, one line each: remote/contract.ts and remote/functions.ts
// merge them into the contract and the functions registry. A folder's step (./index.ts) is listed
// apart because it calls through that contract: one list of both would be an import circle.
export { NTP_SERVERS_REMOTE } from './ntp-servers/remote.js';
export { TIME_ZONE_REMOTE } from './time-zone/remote.js';
