// A secret value: masked wherever it is printed, serialized or inspected. The only way to the
// clear text is reveal(), and every revealed value is remembered so that redact() can scrub it
// from text we did not produce ourselves (a remote command's stderr, an error message), also where
// that text carries it escaped: inside JSON, or inside a PowerShell string literal.
import { inspect } from 'node:util';

const MASK = '********';

/**
 * Values shorter than this are not remembered for redact(): masking every `ab` in a text would
 * garble it. So a secret this short could print in clear, and is refused where secrets are read.
 */
export const MIN_SECRET_LENGTH = 4;

const revealed = new Set<string>();
/** Every revealed value in every escaped form, longest first (a form may contain a shorter one). */
let forms: readonly string[] = [];

function remember(value: string): void {
  if (value.length < MIN_SECRET_LENGTH || revealed.has(value)) return;
  revealed.add(value);
  forms = [...new Set([...forms, ...escapedForms(value)])].sort((a, b) => b.length - a.length);
}

const PS_SINGLE_QUOTES = /['\u2018\u2019\u201a\u201b]/g;
const PS_DOUBLE_QUOTE_SPECIALS = /[`"$\u201c\u201d\u201e]/g;
const PS_CONTROL_ESCAPES: Readonly<Record<string, string>> = { '\n': '`n', '\r': '`r', '\t': '`t', '\0': '`0' };

/**
 * The ways a value reads inside text: as is; inside a JSON string (JSON.stringify's escapes, and
 * Windows PowerShell 5.1's ConvertTo-Json, which also writes ' < > & as \u0027 \u003c \u003e \u0026);
 * inside a single-quoted PowerShell string (each single quote doubled, typographic ones too); and
 * inside a double-quoted one (backtick escapes, line breaks kept or written as `n).
 */
export function escapedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const psDouble = value.replace(PS_DOUBLE_QUOTE_SPECIALS, (c) => `\`${c}`);
  return [
    ...new Set([
      value,
      json,
      json.replace(/['<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`),
      value.replace(PS_SINGLE_QUOTES, (q) => q + q),
      psDouble,
      psDouble.replace(/[\n\r\t\0]/g, (c) => PS_CONTROL_ESCAPES[c]!),
    ]),
  ];
}

export class Secret {
  readonly #value: string;
  /** Where the value came from, e.g. `env:K8S_KUBECONFIG`: safe to print. */
  readonly source: string;

  constructor(value: string, source: string) {
    this.#value = value;
    this.source = source;
  }

  reveal(): string {
    remember(this.#value);
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

/** Replaces every revealed secret value in `text`, in any of its escaped forms, by the mask. */
export function redact(text: string): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(MASK);
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
