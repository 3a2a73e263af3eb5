// `--check` of a rolling run: the plan and the preflight, printed; nothing changes, no lock is taken.
// Exit 2 when a batch is planned, 3 when a host failed to plan, 130 when interrupted.
import { checkPreflight } from '../preflight/plan-preflight.js';
import { allowedFailures } from '../serial.js';
import { planText } from '../text.js';
import { plan } from './plan.js';
import { domainOf, nodeNameOf, type RollingSession } from './session.js';

export async function rollingCheck(s: RollingSession): Promise<number> {
  const p = await plan(s, s.signal);
  const allowed = allowedFailures(s.policy.maxFail, s.targets.length);
  const { preflight, text: preflightLines } = await checkPreflight({
    ...s,
    batches: p.plan.batches,
    nodeName: nodeNameOf(s),
    playbook: s.playbook.name,
    state: s.args.state,
  });
  const text = planText({ ...p, allowedFailures: allowed, domainOf: domainOf(s) }) + preflightLines;
  if (s.args.json) {
    s.err.write(text);
    s.out.write(`${JSON.stringify({ ...p, allowedFailures: allowed, policy: s.policy, preflight }, null, 2)}\n`);
  } else s.out.write(text);
  if (s.signal?.aborted) return 130;
  if (p.failed.length > 0) return 3;
  return p.plan.batches.length > 0 ? 2 : 0;
}
