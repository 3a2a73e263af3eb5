// The rolling policy the node-cycle and batch-loop tests run with: the product's defaults (through
// rollingPolicy, as a playbook's rolling block gets them) with short drain and Ready limits (the
// real kubectl's drain runs on its own clock; the Ready wait on the tests' fake clock).
import type { RollingPolicy } from '../../runner/rolling/model.js';
import { rollingPolicy } from '../../runner/rolling/policy.js';

export const TEST_POLICY: RollingPolicy = Object.freeze(
  rollingPolicy({ control: 'control', drainTimeoutSec: 30, readyTimeoutSec: 10 }, {}, 'test-policy'),
);
