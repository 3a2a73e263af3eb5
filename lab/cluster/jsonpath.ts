// kubectl's jsonpath subset for the kubectl stand-in (lab/cluster/, a TEST DOUBLE): `{.a.b}`,
// `{.items[*].x}`, `{.a[0]}`, `{.a[?(@.k=="v")].x}` and literal text; no range/end.
import { KubectlError, notImplemented } from './args.js';

type Step = { field: string } | { index: number | '*' } | { filter: { path: string[]; value: string } };

function parseExpression(expr: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  if (expr.startsWith('$')) i = 1;
  while (i < expr.length) {
    if (expr[i] === '.') {
      const m = /^\.([A-Za-z0-9_-]+)/.exec(expr.slice(i));
      if (!m)
        throw new KubectlError(`error: error parsing jsonpath {${expr}}, unrecognized character in action: U+002E '.'`);
      steps.push({ field: m[1]! });
      i += m[0].length;
    } else if (expr[i] === '[') {
      const rest = expr.slice(i);
      const index = /^\[(\*|\d+)\]/.exec(rest);
      const filter = /^\[\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*==\s*(?:"([^"]*)"|'([^']*)')\)\]/.exec(rest);
      if (index) {
        steps.push({ index: index[1] === '*' ? '*' : Number(index[1]) });
        i += index[0].length;
      } else if (filter) {
        steps.push({ filter: { path: filter[1]!.slice(1).split('.'), value: filter[2] ?? filter[3]! } });
        i += filter[0].length;
      } else throw notImplemented(`the jsonpath expression {${expr}}`);
    } else throw notImplemented(`the jsonpath expression {${expr}}`);
  }
  return steps;
}

function evaluate(root: unknown, steps: readonly Step[]): unknown[] {
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if ('field' in step) {
        if (v && typeof v === 'object' && !Array.isArray(v) && step.field in v)
          next.push((v as Record<string, unknown>)[step.field]);
      } else if ('index' in step) {
        if (!Array.isArray(v)) continue;
        if (step.index === '*') next.push(...v);
        else if (step.index < v.length) next.push(v[step.index]);
      } else if (Array.isArray(v)) {
        for (const item of v) {
          const got = evaluate(
            item,
            step.filter.path.map((field) => ({ field })),
          );
          if (got.length > 0 && String(got[0]) === step.filter.value) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}

/** `{.a.b} text {.c}` against obj; missing keys print nothing (kubectl get allows missing keys). */
export function jsonpath(template: string, obj: unknown): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) {
      out += template.slice(i);
      break;
    }
    out += template.slice(i, open);
    const close = template.indexOf('}', open);
    if (close < 0) throw new KubectlError(`error: error parsing jsonpath ${template}, unclosed action`);
    const expr = template.slice(open + 1, close).trim();
    if (/^(range|end)\b/.test(expr)) throw notImplemented('jsonpath range/end');
    out += evaluate(obj, parseExpression(expr))
      .map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)))
      .join(' ');
    i = close + 1;
  }
  return out;
}
