// The rolling policy the node-cycle and batch-loop tests run with: short drain and Ready limits (the
// kubectl stand-in's drain runs on its own clock; the Ready wait on the tests' fake clock).
import type { RollingPolicy } from '../../runner/rolling/model.js';

export const TEST_POLICY: RollingPolicy = Object.freeze({
  serial: [1],
  maxFail: 0,
  domainVar: 'failure_domain',
  maxPerDomain: null,
  soakSec: 0,
  control: 'control',
  drainTimeoutSec: 30,
  onDrainTimeout: 'uncordon',
  readyTimeoutSec: 10,
  window: null,
});
