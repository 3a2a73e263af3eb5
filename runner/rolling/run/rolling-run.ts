// A rolling run, from the loaded playbook and inventory to its exit code: the options it works with
// (its own, or a resumed run's), the session prepared before any host is touched, then --check's plan,
// a staging run (--stage), or the rollout with its journal and lock in the state store.
// Exit codes (README): 0 done, 2 (--check) work planned, 3 a node failed or the run stopped, 69 the
// lock is held, 75 paused outside the maintenance window, 130 interrupted.
import { leaseClaim } from '../../state/lease-claim.js';
import { openStore } from '../../state/open-store.js';
import { inventoryKey } from '../inventory-key.js';
import { refuseQuarantinedIn } from '../quarantine-check.js';
import { stagingApply, stagingCheck } from '../stage-command.js';
import { rollingApply } from './apply.js';
import { rollingCheck } from './check.js';
import { effective } from './effective.js';
import type { CommandLineReaders, RollingRunOptions, RollingTarget } from './options.js';
import { prepare } from './prepare.js';

export async function rollingRun(
  args: RollingRunOptions,
  readers: CommandLineReaders,
  target: RollingTarget,
): Promise<number> {
  const { playbook, playbookFile, inventory } = target;
  const key = inventoryKey(inventory);
  const store = args.check ? null : await openStore(args.state);
  try {
    const eff = await effective(args, readers.resumeRefuses, playbook, playbookFile, store, key);
    const given = { ...args, limit: eff.limit, extraVars: [...eff.extraVars], stage: eff.stage };
    const session = await prepare(given, readers, eff.policy, target);
    try {
      const who = { inventoryKey: key, claim: leaseClaim(), resume: eff.resume };
      if (eff.stage) return await (store ? stagingApply(session, store, who) : stagingCheck(session));
      if (!store) return await rollingCheck(session);
      // A quarantined KB (a rollback's) is refused before anything starts; a resumed run already began.
      if (!eff.resume) await refuseQuarantinedIn(store, session.hotfixKbs ?? new Map());
      return await rollingApply(session, store, who);
    } finally {
      await session.close();
    }
  } finally {
    await store?.close();
  }
}
