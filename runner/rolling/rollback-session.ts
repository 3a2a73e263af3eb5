// The rolling run's side of a rollback (rollback-node.ts): what a node's apply installed, recorded when
// its apply phase ends (the build before, each KB its hotfix step installed with the package identity
// the install recorded on the host), and the operations a rollback needs (remove and reboot through
// tasks/windows/hotfix-removal.ts, quarantine in the store). A resumed run reads earlier applies back
// from the journal.
import type { Remote } from '../core/step.js';
import type { HostReport } from '../report/model.js';
import type { JournalEvent, KbQuarantine } from '../state/store.js';
import { rollBackHotfix } from '../../tasks/windows/hotfix-removal.js';
import { invoke } from '../../tasks/windows/remote/calls.js';
import { GET_HOTFIX_PACKAGE } from '../../tasks/windows/remote/ps-hotfix-removal.js';
import { GET_OS_INFO } from '../../tasks/windows/remote/ps-os.js';
import { applyOutcome } from './graph-runs.js';
import type { TasksOutcome } from './cycle-deps.js';
import { INSTALLED, type InstalledUpdate, installedOf, type OnFailure } from './rollback.js';
import type { RollbackOps } from './rollback-ops.js';

export interface RollbackWiring {
  readonly onFailure: OnFailure;
  /** The KBs the playbook's hotfix steps install on the host (quarantine-check.ts). */
  kbsOf(host: string): readonly string[];
  remoteOf(host: string): Remote;
  /** The run's journal so far (a resumed run's earlier applies). */
  readonly events: readonly JournalEvent[];
  readonly quarantine: KbQuarantine;
  readonly runId: number;
  readonly playbook: string;
  /** How long a rollback's reboot may take (seconds). */
  readonly rebootTimeoutSec: number;
}

const quiet = <T>(p: Promise<T>): Promise<T | null> => p.catch(() => null);

export function rollbackSession(w: RollbackWiring): {
  apply(host: string, run: () => Promise<HostReport | undefined>): Promise<TasksOutcome>;
  ops: RollbackOps;
} {
  const installed = new Map<string, InstalledUpdate[]>();
  for (const e of w.events)
    if (e.phase === 'apply' && e.state === 'end' && installedOf(e.data)) installed.set(e.host, installedOf(e.data)!);
  const osBuild = async (host: string) => {
    const info = await invoke(w.remoteOf(host), GET_OS_INFO, {}, `${host}: the build before the apply`);
    return `${info.version}.${info.revision}`;
  };
  return {
    async apply(host, run) {
      const kbs = w.kbsOf(host);
      const buildBefore = kbs.length ? await quiet(osBuild(host)) : null;
      const report = await run();
      const outcome = applyOutcome(report);
      const hotfixChanged = report?.steps.some((s) => s.kind === 'windows.hotfix' && s.status === 'changed');
      if (!outcome.ok || !hotfixChanged) return outcome;
      const updates: InstalledUpdate[] = [];
      for (const kb of kbs) {
        const found = await quiet(invoke(w.remoteOf(host), GET_HOTFIX_PACKAGE, { kb }, `${host}: package of ${kb}`));
        updates.push({ kb, packageName: found?.packageName ?? null, buildBefore });
      }
      installed.set(host, updates);
      const named = updates.map((u) => `installed ${u.kb} as ${u.packageName ?? 'an unrecorded package'}`);
      return { ...outcome, detail: `${outcome.detail}; ${named.join('; ')}`, data: { [INSTALLED]: updates } };
    },
    ops: {
      onFailure: w.onFailure,
      installed: (host) => installed.get(host) ?? null,
      rollBack: (host, u) =>
        rollBackHotfix(w.remoteOf(host), { kb: u.kb, packageName: u.packageName, timeoutSec: w.rebootTimeoutSec }),
      quarantine: (host, u, reason) =>
        w.quarantine.add({
          kb: u.kb,
          packageName: u.packageName,
          host,
          runId: w.runId,
          playbook: w.playbook,
          reason,
          at: new Date().toISOString(),
        }),
    },
  };
}
