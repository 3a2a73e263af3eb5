// Every function of tasks/windows/contract.ts, answered by the simulated Windows node (a test
// double). The `Handlers` type makes a function of the contract without a handler a compile error.
import { dockerImageHandlers } from './docker-images.js';
import { featureHandlers } from './features.js';
import { fileHandlers } from './files.js';
import { networkHandlers } from './network.js';
import { nicHandlers } from './nics.js';
import { osHandlers } from './os.js';
import { serviceHandlers } from './services.js';
import { timeHandlers } from './time.js';
import type { Handlers } from './types.js';

export const HANDLERS: Handlers = {
  ...osHandlers,
  ...featureHandlers,
  ...dockerImageHandlers,
  ...fileHandlers,
  ...serviceHandlers,
  ...networkHandlers,
  ...nicHandlers,
  ...timeHandlers,
};
