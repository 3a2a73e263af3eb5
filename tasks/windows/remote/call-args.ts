// What a call to a contract function takes, as the TypeScript side passes it. Its own module because
// both the calls (calls.ts) and their run-time checks (validate.ts) name it.
import type { Secret } from '../../../runner/core/secret.js';

/**
 * Arguments as the TypeScript side passes them: a top-level string may be a Secret. It travels apart
 * from the arguments' JSON (runner/transport/powershell/program.ts), so that no PowerShell error about
 * that JSON can quote it, and the function receives it as a plain string.
 */
export type CallArgs<T> = { [K in keyof T]: NonNullable<T[K]> extends string ? T[K] | Secret : T[K] };
