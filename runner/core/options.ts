// Validation of a step's options, done once by its normalizer. Each check names the step kind
// and the field, and says what was expected and what was given.
import { StepOptionError } from './errors.js';
import { isSecret, type Secret } from './secret.js';

export type Options = Record<string, unknown>;

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isSecret(v)) return 'a secret';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + '…' : v)}`;
  return `${typeof v} ${JSON.stringify(v)}`;
}

export class OptionReader {
  constructor(
    readonly kind: string,
    readonly opts: Options,
  ) {
    if (opts === null || typeof opts !== 'object' || Array.isArray(opts)) {
      throw new StepOptionError(kind, '(options)', `must be an object, got ${describe(opts)}`);
    }
  }

  fail(field: string, detail: string): never {
    throw new StepOptionError(this.kind, field, detail);
  }

  /** Refuses options the step does not know (a typo must not be silently ignored). */
  only(known: readonly string[]): void {
    for (const k of Object.keys(this.opts)) {
      if (!known.includes(k)) this.fail(k, `is not an option of ${this.kind} (known: ${known.join(', ')})`);
    }
  }

  string(field: string): string;
  string(field: string, optional: 'optional'): string | undefined;
  string(field: string, optional?: 'optional'): string | undefined {
    const v = this.opts[field];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'string') this.fail(field, `must be a string, got ${v === undefined ? 'nothing' : describe(v)}`);
    return v;
  }

  nonEmpty(field: string): string {
    const v = this.string(field);
    if (v === '') this.fail(field, 'must not be empty');
    return v;
  }

  absolutePath(field: string): string;
  absolutePath(field: string, optional: 'optional'): string | undefined;
  absolutePath(field: string, optional?: 'optional'): string | undefined {
    const v = optional ? this.string(field, optional) : this.string(field);
    if (v === undefined) return undefined;
    if (!v.startsWith('/')) this.fail(field, `must be an absolute path, got ${describe(v)}`);
    if (v.includes('\n') || v.includes('\0')) this.fail(field, 'must not contain a newline or NUL');
    return v.length > 1 ? v.replace(/\/+$/, '') : v;
  }

  boolean(field: string, fallback: boolean): boolean {
    const v = this.opts[field];
    if (v === undefined) return fallback;
    if (typeof v !== 'boolean') this.fail(field, `must be true or false, got ${describe(v)}`);
    return v;
  }

  integer(field: string, range?: { min?: number; max?: number }): number;
  integer(field: string, range: { min?: number; max?: number }, optional: 'optional'): number | undefined;
  integer(field: string, range: { min?: number; max?: number } = {}, optional?: 'optional'): number | undefined {
    const v = this.opts[field];
    if (v === undefined && optional) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v))
      this.fail(field, `must be an integer, got ${v === undefined ? 'nothing' : describe(v)}`);
    if (range.min !== undefined && v < range.min) this.fail(field, `must be at least ${range.min}, got ${v}`);
    if (range.max !== undefined && v > range.max) this.fail(field, `must be at most ${range.max}, got ${v}`);
    return v;
  }

  /**
   * A file mode as an octal string ('0644', '644'). Numbers are refused: `mode: 644` would be
   * decimal 644 (octal 1204), the classic mistake, and cannot be told apart from 0o644.
   */
  mode(field: string): string | undefined {
    const v = this.opts[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !/^0?[0-7]{3,4}$/.test(v)) {
      this.fail(field, `must be an octal mode written as a string such as '0644', got ${describe(v)}`);
    }
    return v.replace(/^0+(?=[0-7]{3})/, '').padStart(4, '0');
  }

  /** A user or group name (or numeric id). */
  principal(field: string): string | undefined {
    const v = this.string(field, 'optional');
    if (v !== undefined && !/^[A-Za-z0-9_][A-Za-z0-9_.-]*\$?$/.test(v))
      this.fail(field, `must be a user or group name, got ${describe(v)}`);
    return v;
  }

  stringOrSecret(field: string): string | Secret {
    const v = this.opts[field];
    if (isSecret(v)) return v;
    return this.string(field);
  }
}
