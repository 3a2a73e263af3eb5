// Steps whose apply is one quick script: a dependent's apply may follow that script in the same round
// trip (runner/run/chain.ts), since nothing of this step's apply comes after it, and it ends at once (a
// file, a directory, a kernel parameter; never a user's command, whose time is its own, and during
// which Ctrl-C must still keep what waits for it from starting). A set of the step objects the built-in
// factories make rather than a property, so that a step spread into a new object with an apply of its
// own (`{ ...file(options), apply }`) is not in it.
const oneQuickScript = new WeakSet<object>();

/** Freezes `step` (as made by its factory) and marks it as applying with one quick script. */
export function sendsOneQuickScript<S extends object>(step: S): Readonly<S> {
  oneQuickScript.add(Object.freeze(step));
  return step;
}

export function isOneQuickScript(step: object): boolean {
  return oneQuickScript.has(step);
}
