// The shape of a handler of the simulated Windows node (a test double): one per function of
// tasks/windows/contract.ts, taking the contract's argument and returning the contract's result.
import type { ArgsOf, PlayFunctionName, ResultOf } from '../../../tasks/windows/contract.js';
import type { SimulatedWindowsNode } from '../model.js';

export type Handler<F extends PlayFunctionName> = (node: SimulatedWindowsNode, args: ArgsOf<F>) => ResultOf<F>;
export type Handlers = { [F in PlayFunctionName]: Handler<F> };

/** yyyy-MM-dd of now, as the simulated node dates an installed hotfix. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
