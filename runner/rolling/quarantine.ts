// The quarantine check (docs/rolling.md#rollback-and-quarantine): a run whose hotfix step would install a
// KB that a rollback quarantined refuses to start, naming the KB, when and where it failed, and how to
// release it. Pure: the targeted hosts' hotfix KBs against the store's quarantined ones.
import type { QuarantinedKb } from '../state/store.js';

/** The quarantined KBs this run would install, each with the hosts it would install it on. */
export function quarantinedInRun(
  kbsByHost: ReadonlyMap<string, readonly string[]>,
  quarantined: readonly QuarantinedKb[],
): { entry: QuarantinedKb; hosts: string[] }[] {
  return quarantined
    .map((entry) => ({
      entry,
      hosts: [...kbsByHost]
        .filter(([, kbs]) => kbs.some((kb) => kb.toUpperCase() === entry.kb.toUpperCase()))
        .map(([h]) => h),
    }))
    .filter((q) => q.hosts.length > 0);
}

/** One line per quarantined KB the run would install, or null when there is none. */
export function quarantineRefusal(
  kbsByHost: ReadonlyMap<string, readonly string[]>,
  quarantined: readonly QuarantinedKb[],
): string | null {
  const found = quarantinedInRun(kbsByHost, quarantined);
  if (found.length === 0) return null;
  return found
    .map(
      ({ entry: q, hosts }) =>
        `${q.kb} is quarantined: it failed on ${q.host} at ${q.at}` +
        `${q.runId === null ? '' : ` (run ${q.runId} of ${q.playbook})`}: ${q.reason}; ` +
        `this run would install it on ${hosts.join(', ')}. Once the update is known good (or the pin moved), ` +
        `release it with: play rollouts release-kb ${q.kb}`,
    )
    .join('\n');
}
