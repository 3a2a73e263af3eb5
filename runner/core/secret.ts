// A secret value: masked wherever it is printed, serialized or inspected. The only way to the
// clear text is reveal(), and every revealed value is remembered so that redact() can scrub it
// from text we did not produce ourselves (a remote command's stderr, an error message).
import { inspect } from 'node:util';

const MASK = '********';
const revealed = new Set<string>();

export class Secret {
  readonly #value: string;
  /** Where the value came from, e.g. `env:K8S_KUBECONFIG`: safe to print. */
  readonly source: string;

  constructor(value: string, source: string) {
    this.#value = value;
    this.source = source;
  }

  reveal(): string {
    if (this.#value.length >= 4) revealed.add(this.#value);
    return this.#value;
  }

  toString(): string {
    return MASK;
  }
  toJSON(): string {
    return MASK;
  }
  [inspect.custom](): string {
    return `Secret(${this.source})`;
  }
}

export function isSecret(v: unknown): v is Secret {
  return v instanceof Secret;
}

/** Replaces every revealed secret value in `text` by the mask. */
export function redact(text: string): string {
  let out = text;
  for (const value of revealed) if (out.includes(value)) out = out.split(value).join(MASK);
  return out;
}

/** Deep copy of a JSON-like value with secrets replaced by the mask. */
export function masked(value: unknown): unknown {
  if (isSecret(value)) return MASK;
  if (Array.isArray(value)) return value.map(masked);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v)]));
  }
  if (typeof value === 'string') return redact(value);
  return value;
}

export { MASK };
