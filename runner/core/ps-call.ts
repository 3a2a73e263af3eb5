// The remote half of a Windows step is a pair of PowerShell functions (probe, apply) with a JSON
// contract: each takes one argument, an object parsed from JSON, and returns a value converted to
// JSON. A PsCall names the function and its arguments; the transport turns one or several calls
// into one program (function definitions + a dispatcher), so a host's probes share a round trip.
import { Script } from './quote.js';

export interface PsFunction {
  /** A PowerShell function name, e.g. `Get-PlayHotfix`. */
  readonly name: string;
  /** The complete definition, `function Get-PlayHotfix { param($a) ... }`: constant text from our source. */
  readonly definition: string;
}

export function psFunction(name: string, body: string): PsFunction {
  if (!/^[A-Za-z]+-Play[A-Za-z0-9]+$/.test(name)) throw new TypeError(`not a play PowerShell function name: ${name}`);
  return Object.freeze({ name, definition: `function ${name} {\n  param($a)\n${body.replace(/^\n+|\s+$/g, '')}\n}` });
}

/** A ps Script that is one call; `program()` in the transport renders it with its definition. */
export class PsCall extends Script {
  constructor(
    readonly fn: PsFunction,
    readonly args: Readonly<Record<string, unknown>>,
  ) {
    super('ps', `${fn.name} (ConvertFrom-Json -InputObject <args>)`);
  }
}

export function psCall(fn: PsFunction, args: Readonly<Record<string, unknown>>): PsCall {
  return new PsCall(fn, args);
}

/** What one call returned: its JSON value, or the error message it threw. */
export type PsCallResult = { ok: true; value: unknown } | { ok: false; error: string };
