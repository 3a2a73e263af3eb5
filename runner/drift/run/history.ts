// `play drift history` and `play drift show [RUN|latest]`: what the state store remembers of drift
// runs, read-only. Show filters items by host glob (--host) and task name (--task).
import type { Writable } from 'node:stream';
import { UsageError } from '../../core/errors.js';
import type { DriftRun } from '../model.js';
import { driftRunText } from '../text.js';
import { globRegExp } from '../../inventory/glob.js';
import { openStore, storeLocation } from '../../state/open-store.js';

export async function driftHistory(
  o: { state?: string; limit: number; json: boolean },
  out: Writable,
): Promise<number> {
  const store = await openStore(o.state, 'read');
  try {
    const runs = store ? await store.drift.list(o.limit) : [];
    if (o.json) {
      out.write(`${JSON.stringify(runs, null, 2)}\n`);
      return 0;
    }
    if (runs.length === 0) {
      out.write(`no drift runs recorded in ${storeLocation(o.state)}\n`);
      return 0;
    }
    out.write(
      '  run  started                   took   exit  new  persisting  resolved  waived  unreachable  failed  playbooks  controller\n',
    );
    for (const r of runs) {
      const c = r.counts;
      out.write(
        `${String(r.id).padStart(5)}  ${r.startedAt.padEnd(24)}  ${`${(r.durationMs / 1000).toFixed(1)}s`.padStart(5)}  ${String(r.exitCode).padStart(4)}  ${String(c.new).padStart(3)}  ${String(c.persisting).padStart(10)}  ${String(c.resolved).padStart(8)}  ${String(c.waived).padStart(6)}  ${String(c.unreachable).padStart(11)}  ${String(c.failed).padStart(6)}  ${r.playbooks.join(',')}  ${r.controller ?? '-'}\n`,
      );
    }
    return 0;
  } finally {
    await store?.close();
  }
}

export async function driftShow(
  o: { state?: string; run: string; host?: string; task?: string; json: boolean },
  out: Writable,
): Promise<number> {
  const store = await openStore(o.state, 'read');
  try {
    let run: DriftRun | null;
    if (o.run === 'latest') run = store ? await store.drift.latest() : null;
    else if (/^\d+$/.test(o.run)) run = store ? await store.drift.get(Number(o.run)) : null;
    else throw new UsageError(`drift show '${o.run}': expected a run number or 'latest' (see 'play drift history')`);
    if (!run)
      throw new UsageError(
        o.run === 'latest'
          ? `no drift runs recorded in ${storeLocation(o.state)}; run 'play drift' first`
          : `no drift run ${o.run} in ${storeLocation(o.state)} (see 'play drift history')`,
      );
    const host = o.host ? globRegExp(o.host) : null;
    const items = run.items.filter((i) => (!host || host.test(i.host)) && (!o.task || i.task === o.task));
    const shown = { ...run, items };
    out.write(o.json ? `${JSON.stringify(shown, null, 2)}\n` : driftRunText(shown));
    return 0;
  } finally {
    await store?.close();
  }
}
