// notAsked(what): the step of an optional task the inventory did not ask for (no clean-up token, no
// local .msu to upload): it probes the OS, reports `ok` and never changes anything, so the task keeps
// its place in the graph and its dependents run. `outputs` are what the task's readers get instead of
// the asked step's (e.g. rebootRequired: false), so they read one type either way.
import { NOOP, type Change } from '../../runner/core/change.js';
import type { Step } from '../../runner/core/step.js';
import { probeCall } from './remote/calls.js';
import type { OsInfo } from './os-build.js';
import { GET_OS_INFO } from './remote/ps-os.js';

export function notAsked<O extends object = object>(
  what: string,
  outputs = {} as O,
): Step<{ asked: false }, OsInfo, O> {
  return Object.freeze({
    kind: 'windows.notAsked',
    title: `${what}: not asked by the inventory`,
    desired: Object.freeze({ asked: false as const }),
    probe: () => probeCall(GET_OS_INFO, {}, (v) => v as unknown as OsInfo),
    diff: (): Change => NOOP,
    async apply(): Promise<void> {},
    outputs: () => outputs,
  });
}
