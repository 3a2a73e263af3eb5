// Steps whose apply sends at most one script: a dependent's apply may follow that script in the same
// round trip (runner/run/chain.ts), since nothing of this step's apply comes after it. A set of the
// step objects the built-in factories make rather than a property, so that a step spread into a new
// object with an apply of its own (`{ ...file(options), apply }`) is not in it.
const oneScript = new WeakSet<object>();

/** Marks `step` (as made by its factory) as sending at most one script per apply. */
export function sendsOneScript<S extends object>(step: S): S {
  oneScript.add(step);
  return step;
}

export function isOneScript(step: object): boolean {
  return oneScript.has(step);
}
