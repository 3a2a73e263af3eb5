// What an apply can say beyond its outputs: that it ran and found nothing to change. A command's
// changedWhen (linux.command, windows.powershell, windows.command) decides this only after the
// command has run, so the plan said `run` and the report says `ok`, as Ansible's changed_when does.
// The mark is a symbol key on the outputs object, so it never collides with an output's name.

export const UNCHANGED: unique symbol = Symbol('play.appliedUnchanged');

/** The outputs of an apply that ran but changed nothing. */
export function unchanged<O extends object>(outputs: O): O & { readonly [UNCHANGED]: true } {
  return { ...outputs, [UNCHANGED]: true as const };
}

export function reportsUnchanged(applied: unknown): boolean {
  return typeof applied === 'object' && applied !== null && (applied as { [UNCHANGED]?: unknown })[UNCHANGED] === true;
}
