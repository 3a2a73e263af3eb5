// Waiting in tests, written once: a sleep, and a poll that says what it waited for when it gives up.
// Time here only bounds a wait (a poll that never succeeds must end); no test asserts on it.

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `check` every `every` ms until it returns something other than false (or throws), for at
 * most `ms`; returns that value and how long it took. On timeout: an Error naming `what`.
 */
export async function waitFor<T>(
  what: string,
  check: () => T | false | Promise<T | false>,
  ms: number,
  every = 100,
): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== false) return { value, ms: Date.now() - started };
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(every);
  }
}

/** `p`, or an Error naming `what` once `ms` have passed (a process that never answers must not hang the test). */
export async function bounded<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([p, limit]);
  } finally {
    clearTimeout(timer);
  }
}
