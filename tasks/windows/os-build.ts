// osBuild({ version: '10.0.17763', revision }): asserts the OS build the node runs (docs/domain.md#inventory-facts-per-windows-node: host
// and container builds must match, so nodes are pinned to a revision). Probe-only: the diff
// reports a mismatch (fields version, revision); apply changes nothing and fails, saying what
// does change the build: the hotfix step for that revision, and the reboot that completes it.
// Output: { build } such as '10.0.17763.1158'.
import { NOOP, type Change, type Fields } from '../../runner/core/change.js';
import { z } from 'zod';
import { integer, nonEmpty, readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { probeCall, stepFailure } from './remote/calls.js';
import type { ResultOf } from './remote/contract.js';
import { GET_OS_INFO } from './remote/ps-os.js';

const KIND = 'windows.osBuild';

const Options = z.strictObject({
  version: nonEmpty().refine((v) => /^[0-9]+\.[0-9]+\.[0-9]+$/.test(v), {
    error: (iss) => `must be major.minor.build such as 10.0.17763, got ${JSON.stringify(iss.input)}`,
  }),
  revision: integer({ min: 0 }),
});

export type OsBuildOptions = z.input<typeof Options>;
export type OsBuildDesired = Readonly<z.output<typeof Options>>;

export type OsInfo = Readonly<ResultOf<'Get-PlayOsInfo'>>;

export interface OsBuildOutputs {
  build: string;
}

export function diffOsBuild(d: Readonly<OsBuildDesired>, a: OsInfo | null): Change {
  if (a === null) throw new Error('an OS probe always reports a state');
  const fields: string[] = [];
  const before: Fields = {},
    after: Fields = {};
  if (a.version !== d.version) {
    fields.push('version');
    before.version = a.version;
    after.version = d.version;
  }
  if (a.revision !== d.revision) {
    fields.push('revision');
    before.revision = a.revision;
    after.revision = d.revision;
  }
  const warnings = a.pendingReboot ? ['a reboot is pending on this host: the build may change when it reboots'] : [];
  if (fields.length === 0) return warnings.length ? { ...NOOP, warnings } : NOOP;
  return { action: 'update', fields, before, after, ...(warnings.length ? { warnings } : {}) };
}

export function osBuild(options: OsBuildOptions): Step<OsBuildDesired, OsInfo, OsBuildOutputs> {
  const desired: OsBuildDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = `OS build ${desired.version}.${desired.revision}`;

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    probe: () => probeCall(GET_OS_INFO, {}, (info) => info),
    diff: diffOsBuild,
    async apply(_remote: Remote, _change: Change, actual: OsInfo | null, d: OsBuildDesired): Promise<never> {
      const { version, revision } = d;
      const running = actual ? `${actual.version}.${actual.revision}` : 'an unknown build';
      const why = actual?.pendingReboot
        ? 'A reboot is pending: reboot the host (a reboot task with ifPending: true) and check again.'
        : `This step only checks the build: install the hotfix of build ${version}.${revision} (a hotfix task) and reboot.`;
      throw stepFailure(title, `the host runs ${running}, not ${version}.${revision}. ${why}`);
    },
    outputs: (_d: Readonly<OsBuildDesired>, a: OsInfo | null): OsBuildOutputs => ({
      build: a ? `${a.version}.${a.revision}` : '',
    }),
  });
}
