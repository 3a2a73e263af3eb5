// `-e key=value` (a string) or `-e '{"key": 1}'` (JSON), like ansible-playbook's --extra-vars.
// Extra vars take precedence over every inventory variable.
import { UsageError } from '../core/errors.js';

export function parseExtraVars(items: readonly string[]): Record<string, unknown> {
  const vars: Record<string, unknown> = {};
  for (const item of items) {
    if (item.trimStart().startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(item);
      } catch (e) {
        throw new UsageError(`-e ${item}: not valid JSON: ${(e as Error).message}`);
      }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new UsageError(`-e ${item}: a JSON value must be an object of variables, such as {"key": 1}`);
      }
      Object.assign(vars, parsed);
      continue;
    }
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`-e ${item}: expected key=value or a JSON object`);
    const key = item.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key))
      throw new UsageError(`-e ${item}: '${key}' is not a valid variable name`);
    vars[key] = item.slice(eq + 1);
  }
  return vars;
}
