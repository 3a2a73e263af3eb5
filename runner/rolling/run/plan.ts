// The planning check of a rolling run: every targeted host in check mode, read as already done, waived,
// failed to plan, or work; the hosts with work form the batches (serial, failure domains).
import type { RunReport } from '../../report/model.js';
import { planBatches } from '../batches.js';
import { checkOutcome } from '../graph-runs.js';
import type { BatchPlan } from '../model.js';
import { waivedReason } from '../waived.js';
import { domainOf, type RollingSession } from './session.js';

export interface Planned {
  plan: BatchPlan;
  ok: string[];
  waived: { host: string; reason: string }[];
  failed: { host: string; reason: string }[];
  changes: Record<string, string[]>;
}

/** Checks every targeted host and forms the batches from those that need work. */
export async function plan(s: RollingSession, signal?: AbortSignal): Promise<Planned> {
  const report: RunReport = await s.runs.run(
    s.targets.map((h) => h.name),
    'check',
    signal,
  );
  const ok: string[] = [];
  const failed: { host: string; reason: string }[] = [];
  const waived: { host: string; reason: string }[] = [];
  const work: string[] = [];
  const changes: Record<string, string[]> = {};
  const now = new Date();
  for (const h of s.targets) {
    const hr = report.hosts[h.name];
    const o = checkOutcome(hr);
    const changed = (hr?.steps ?? []).filter((x) => x.status === 'changed' || x.status === 'unknown');
    const waiver =
      'work' in o && o.work
        ? waivedReason(
            h.name,
            s.playbook.name,
            // Unknown steps wait on an earlier task's output (reboot on hotfix): the changes decide.
            [...new Set(changed.filter((x) => x.status === 'changed').map((x) => x.task))],
            s.waivers,
            s.resolve,
            now,
          )
        : null;
    if ('error' in o) failed.push({ host: h.name, reason: o.error });
    else if (!o.work) ok.push(h.name);
    else if (waiver !== null) waived.push({ host: h.name, reason: waiver });
    else {
      work.push(h.name);
      changes[h.name] = changed.map(
        (x) => `${x.task}: ${x.status === 'unknown' ? (x.error ?? 'unknown') : `${x.action} ${x.fields.join(', ')}`}`,
      );
    }
  }
  const domain = domainOf(s);
  const batches = planBatches(
    work.map((name) => ({ name, domain: domain(name) })),
    s.policy.serial,
    s.policy.maxPerDomain,
  );
  return { plan: batches, ok, waived, failed, changes };
}
