// `play rollouts quarantined` and `play rollouts release-kb KB`: the KBs a rolling run's rollback
// quarantined (docs/rolling.md#rollback-and-quarantine). Listing never creates a store; releasing
// needs the KB to be quarantined (a typo is exit 64, naming the ones that are).
import type { Writable } from 'node:stream';
import { UsageError } from '../core/errors.js';
import { openStore, storeLocation } from '../state/open-store.js';
import type { QuarantinedKb } from '../state/store.js';

export interface QuarantineArgs {
  action: 'quarantined' | 'release-kb';
  /** The KB, for release-kb. */
  run?: string;
  state?: string;
  json: boolean;
}

const line = (q: QuarantinedKb) =>
  `${q.kb}  ${q.at}  failed on ${q.host}${q.runId === null ? '' : ` (run ${q.runId} of ${q.playbook})`}: ${q.reason}\n`;

export async function quarantineCommand(args: QuarantineArgs, out: Writable): Promise<number> {
  const release = args.action === 'release-kb';
  const kb = (args.run ?? '').toUpperCase();
  if (release && !/^KB[0-9]{6,8}$/.test(kb))
    throw new UsageError(
      `rollouts release-kb: name the KB, such as KB4551853${args.run ? `, not '${args.run}'` : ''} (play rollouts quarantined lists them)`,
    );
  const store = await openStore(args.state, 'read');
  if (!store) {
    if (release)
      throw new UsageError(
        `rollouts release-kb: ${kb} is not quarantined (no state store at ${storeLocation(args.state)})`,
      );
    out.write(args.json ? '[]\n' : '');
    return 0;
  }
  try {
    if (!release) {
      const all = await store.quarantine.list();
      out.write(args.json ? `${JSON.stringify(all, null, 2)}\n` : all.map(line).join(''));
      return 0;
    }
    const released = await store.quarantine.release(kb);
    if (!released) {
      const held = (await store.quarantine.list()).map((q) => q.kb);
      throw new UsageError(
        `rollouts release-kb: ${kb} is not quarantined in ${store.location} (${held.length ? `quarantined: ${held.join(', ')}` : 'none is'})`,
      );
    }
    out.write(
      args.json
        ? `${JSON.stringify(released, null, 2)}\n`
        : `${kb} released: runs may install it again (it failed on ${released.host} at ${released.at})\n`,
    );
    return 0;
  } finally {
    await store.close();
  }
}
