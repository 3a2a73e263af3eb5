// reboot({ required, ifPending?, timeoutSec?, waitForServices? }): reboots the host when an earlier
// step says so, as a verified state machine (docs/architecture.md#reboots): record LastBootUpTime, schedule
// the restart (Restart-PlayComputer: shutdown.exe /r in a few seconds, so the call returns first),
// then wait (reboot-wait.ts) until LastBootUpTime changed and the listed services run, within
// timeoutSec (default 900). Field: reboot (action `run`). Outputs: { rebooted, lastBootUpTime }.
//
// A task reboots only when told to: `required` is a boolean, typically an upstream step's output (a
// task of an earlier block, see docs/architecture.md#playbooks-and-the-task-graph)
//   reboot: { on: 'windows', needs: ['kb'], step: (ctx) => reboot({ required: ctx.output('kb').rebootRequired }) }
// and `ifPending: true` also reboots when the host reports a pending reboot (CBS RebootPending or
// Windows Update RebootRequired, from Get-PlayOsInfo). Otherwise the step is a noop. The task's own
// timeoutSec must allow for the wait. A rebooted host no longer needs the reboot, but `required`
// still says true on this run: the step never claims convergence (converges: false).
import { NOOP, type Change } from '../../runner/core/change.js';
import { z } from 'zod';
import { integer, readOptions } from '../../runner/core/step-options.js';
import type { Remote, Step } from '../../runner/core/step.js';
import { invoke, probeCall } from './remote/calls.js';
import { REAL_CLOCK, type Clock } from './remote/clock.js';
import { isConnectionProblem } from './remote/connection-loss.js';
import type { OsInfo } from './os-build.js';
import { RESTART_COMPUTER, GET_OS_INFO } from './remote/ps-os.js';
import { waitForReboot } from './reboot-wait.js';
import { listedServiceName, listOf } from './options/win-options.js';

const Options = z.strictObject({
  required: z.boolean({
    error: (iss) =>
      `must be true or false (typically an earlier step's rebootRequired output), got ${iss.input === undefined ? 'nothing' : JSON.stringify(iss.input)}`,
  }),
  ifPending: z.boolean().default(false),
  timeoutSec: integer({ min: 30, max: 7200 }).default(900),
  waitForServices: listOf(listedServiceName())
    .optional()
    .transform((v) => Object.freeze(v ?? [])),
});

export type RebootOptions = z.input<typeof Options>;
export type RebootDesired = Readonly<z.output<typeof Options>>;

export interface RebootOutputs {
  rebooted: boolean;
  lastBootUpTime: string | null;
}

const KIND = 'windows.reboot';
/** The restart is scheduled this far ahead, so that the call's answer gets out first. */
export const RESTART_DELAY_SECONDS = 5;

export function diffReboot(d: Readonly<RebootDesired>, a: OsInfo | null): Change {
  if (a === null) throw new Error('an OS probe always reports a state');
  const why = d.required
    ? 'required by an earlier step'
    : d.ifPending && a.pendingReboot
      ? 'a reboot is pending on the host'
      : null;
  if (why === null) return NOOP;
  return {
    action: 'run',
    fields: ['reboot'],
    before: { reboot: `up since ${a.lastBootUpTime}` },
    after: { reboot: `rebooted (${why})` },
  };
}

export function reboot(options: RebootOptions, clock: Clock = REAL_CLOCK): Step<RebootDesired, OsInfo, RebootOutputs> {
  const desired: RebootDesired = Object.freeze(readOptions(KIND, Options, options));
  const title = 'reboot';

  return Object.freeze({
    kind: KIND,
    title,
    desired,
    converges: false,
    probe: () => probeCall(GET_OS_INFO, {}, (info) => info),
    diff: diffReboot,
    async apply(remote: Remote, change: Change, actual: OsInfo | null, d: RebootDesired): Promise<RebootOutputs> {
      if (!change.fields.includes('reboot') || actual === null)
        return { rebooted: false, lastBootUpTime: actual?.lastBootUpTime ?? null };
      const deadline = clock.now() + d.timeoutSec * 1000;
      try {
        await invoke(
          remote,
          RESTART_COMPUTER,
          { delaySeconds: RESTART_DELAY_SECONDS },
          `${title}: Restart-PlayComputer`,
        );
      } catch (e) {
        // The restart may have been faster than the answer: the wait finds out.
        if (!isConnectionProblem(e)) throw e;
      }
      const lastBootUpTime = await waitForReboot(remote, {
        title,
        before: actual.lastBootUpTime,
        deadline,
        clock,
        services: d.waitForServices,
      });
      return { rebooted: true, lastBootUpTime };
    },
    outputs: (_d: Readonly<RebootDesired>, a: OsInfo | null): RebootOutputs => ({
      rebooted: false,
      lastBootUpTime: a?.lastBootUpTime ?? null,
    }),
  });
}
