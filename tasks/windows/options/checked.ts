// A zod transform written as plain code: `read` normalizes a parsed value and, when the value is
// wrong, calls `refuse` with the words of the refusal (on the field itself, or on a field of the
// object it reads). The refusal becomes the schema's issue, so a check that needs more than a
// pattern (a path's parts, an address inside a block, one option against another) keeps its
// message while the step's types stay inferred from the schema.
import { z } from 'zod';

class Refusal {
  constructor(
    readonly message: string,
    readonly path: PropertyKey[],
  ) {}
}

/** Ends the check with this message, on the value itself or on `path` below it. */
export type Refuse = (message: string, ...path: PropertyKey[]) => never;

const refuse: Refuse = (message, ...path) => {
  throw new Refusal(message, path);
};

/** `schema`, then `read` of its output; a refusal is an issue, any other throw a bug that propagates. */
export function checked<S extends z.ZodType, O>(schema: S, read: (value: z.output<S>, refuse: Refuse) => O) {
  return schema.transform((value, ctx): O => {
    try {
      return read(value, refuse);
    } catch (e) {
      if (!(e instanceof Refusal)) throw e;
      ctx.issues.push({ code: 'custom', message: e.message, input: value, path: e.path });
      return z.NEVER;
    }
  });
}

/** A value the schema accepts only when `ok`; `message` says what was expected, given the value. */
export function accepted<T>(ok: (v: unknown) => boolean, message: (v: unknown) => string) {
  return z.custom<T>(ok, { error: (iss) => message(iss.input) });
}

/** `JSON.stringify` of a value, cut to `max` characters: how a refused value is quoted. */
export function quoted(v: unknown, max = 60): string {
  return typeof v === 'string' && v.length > max ? JSON.stringify(`${v.slice(0, max)}…`) : JSON.stringify(v);
}
