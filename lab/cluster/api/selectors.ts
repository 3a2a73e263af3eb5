// labelSelector and fieldSelector of list requests, for the API double (lab/cluster/api/, a TEST DOUBLE):
// the label grammar of k8s.io/apimachinery/pkg/labels (`k=v`, `k==v`, `k!=v`, `k in (a,b)`,
// `k notin (a,b)`, `k`, `!k`, joined by commas) and the field grammar (`f=v`, `f==v`, `f!=v`). A field a
// resource does not index is refused, as the API server refuses it (400). Pure.

export type Selector = (value: (key: string) => string | undefined) => boolean;

export class SelectorError extends Error {}

/** Splits on commas outside parentheses. */
function terms(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

function labelTerm(term: string): Selector {
  let m = /^([^\s=!()]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
  if (m) {
    const [, key, op, list] = m as unknown as [string, string, string, string];
    const values = list.split(',').map((v) => v.trim());
    return (get) => {
      const v = get(key);
      return op === 'in' ? v !== undefined && values.includes(v) : v === undefined || !values.includes(v);
    };
  }
  m = /^([^\s=!()]+)\s*(==|=|!=)\s*([^\s=!(),]*)$/.exec(term);
  if (m) {
    const [, key, op, value] = m as unknown as [string, string, string, string];
    return op === '!=' ? (get) => get(key) !== value : (get) => get(key) === value;
  }
  m = /^(!?)([^\s=!()]+)$/.exec(term);
  if (m) {
    const [, not, key] = m as unknown as [string, string, string];
    return not ? (get) => get(key) === undefined : (get) => get(key) !== undefined;
  }
  throw new SelectorError(`unable to parse requirement: ${term}`);
}

export function labelSelector(text: string | null): Selector {
  const parts = terms(text ?? '').map(labelTerm);
  return (get) => parts.every((p) => p(get));
}

/** `f=v,...` over the fields `known` lists; throws naming the first unknown field. */
export function fieldSelector(text: string | null, known: readonly string[]): Selector {
  const parts = terms(text ?? '').map((term) => {
    const m = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(term);
    if (!m) throw new SelectorError(`invalid selector: '${term}'; can't understand '${term}'`);
    const [, field, op, value] = m as unknown as [string, string, string, string];
    if (!known.includes(field)) throw new SelectorError(`field label not supported: ${field}`);
    return op === '!='
      ? (get: (k: string) => string | undefined) => get(field) !== value
      : (get: (k: string) => string | undefined) => get(field) === value;
  });
  return (get) => parts.every((p) => p(get));
}
