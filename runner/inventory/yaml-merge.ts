// YAML merge keys (`<<: *base`, `<<: [*a, *b]`) as ansible's loader reads them (PyYAML's
// flatten_mapping): a mapping's own keys win over merged ones; of the mappings one `<<` lists, the
// earlier wins; of several `<<` keys in one mapping, the later wins. The merged keys come first, in
// the order PyYAML puts them (which orders a group's merged hosts before its own).
// Values (a variable's mapping) are converted by yaml, whose merge gives the same result for one `<<`
// per mapping; a mapping with several is rewritten into one `<<` listing them in PyYAML's priority.
// The inventory's structure (groups, hosts, sections) is walked with mapPairs().
import { type Alias, isAlias, isMap, isScalar, isSeq, type Node, type Pair, visit, YAMLMap, YAMLSeq } from 'yaml';

/** What the merge needs of the file being read (a Source; an interface to keep the import one-way). */
export interface MergeSource {
  problem(origin: { path: string; line?: number }, detail: string): void;
  at(path: string, node?: { range?: [number, number, number] | null } | null): { path: string; line?: number };
  /** What an alias stands for, counted against the file's alias budget. */
  resolveAlias(alias: Alias): Node | null;
  /** What an alias stands for, not counted. */
  aliasTarget(alias: Alias): Node | null;
  readonly doc: { contents: unknown };
}

/** A `<<` key: yaml resolves a plain `<<` to a symbol (a quoted '<<' is an ordinary key, as in PyYAML). */
export function isMergeKey(key: unknown): boolean {
  return isScalar(key) && typeof key.value === 'symbol' && key.value.description === '<<';
}

const MERGE_VALUE = 'a merge key (<<) takes a mapping or a list of mappings';

/** What a merge was given instead, without its text (which may come from a decrypted file). */
const kind = (node: unknown) => (isSeq(node) ? 'a list' : isScalar(node) ? 'a scalar' : 'nothing');

/** The mappings one `<<` value merges, earlier (winning) first; `bad` is told of anything else. */
function mergedMaps(value: unknown, resolve: (a: Alias) => Node | null, bad?: (node: unknown) => void): YAMLMap[] {
  const node = isAlias(value) ? resolve(value) : value;
  const maps: YAMLMap[] = [];
  for (const item of isSeq(node) ? node.items : [node]) {
    const target = isAlias(item) ? resolve(item) : item;
    if (isMap(target)) maps.push(target);
    else bad?.(target);
  }
  return maps;
}

/** `all.children.web.hosts` from the pairs above a node, as visit() gives them. */
function pathOf(ancestors: readonly unknown[]): string {
  return ancestors
    .filter(isPairNode)
    .map((p) => (isMergeKey(p.key) ? '<<' : isScalar(p.key) ? String(p.key.value) : '?'))
    .join('.');
}

const isPairNode = (n: unknown): n is Pair => n !== null && typeof n === 'object' && 'key' in n && 'value' in n;

/**
 * Checks every `<<` of the file and rewrites a mapping with several `<<` keys into one, so that
 * yaml's conversion of values gives PyYAML's result. Run once, when the file is parsed.
 */
export function flattenMergeKeys(src: MergeSource): void {
  const several: YAMLMap[] = [];
  const invalid: [YAMLMap, unknown][] = [];
  visit(src.doc.contents as Node, {
    Map: (_, map, ancestors) => {
      const merges = map.items.filter((p) => isMergeKey(p.key));
      for (const p of merges)
        mergedMaps(
          p.value,
          (a) => src.aliasTarget(a),
          (node) => {
            src.problem(src.at(pathOf([...ancestors, map, p]), node as Node), `${MERGE_VALUE}, got ${kind(node)}`);
            invalid.push([map, p]);
          },
        );
      if (merges.length > 1) several.push(map);
    },
  });
  // Reported, and dropped: yaml's conversion would throw on them (the load fails on the problem anyway).
  for (const [map, pair] of invalid) map.items = map.items.filter((p) => p !== pair);
  for (const map of several) {
    const merges = map.items.filter((p) => isMergeKey(p.key));
    // PyYAML: the last `<<` wins, and within one `<<` list the first: one list in that order.
    const seq = new YAMLSeq();
    for (const p of [...merges].reverse()) {
      const node = isAlias(p.value) ? src.aliasTarget(p.value) : p.value;
      seq.items.push(...(isSeq(node) ? node.items : [p.value]));
    }
    merges[0]!.value = seq;
    map.items = map.items.filter((p) => !merges.includes(p) || p === merges[0]);
  }
}

/**
 * The entries of a mapping of the inventory's structure, merges expanded: merged entries first, then
 * its own; a key given twice keeps its first place and its last value (a Python dict's rule).
 */
export function mapPairs(src: MergeSource, map: YAMLMap, path = '', within: ReadonlySet<YAMLMap> = new Set()): Pair[] {
  const merge = map.items.find((p) => isMergeKey(p.key));
  if (!merge) return map.items as Pair[];
  if (within.has(map)) {
    src.problem(src.at(path, merge.key as Node), 'this mapping merges itself through a YAML alias');
    return [];
  }
  const inside = new Set(within).add(map);
  const all: Pair[] = [];
  // flattenMergeKeys reported what is not a mapping.
  for (const m of mergedMaps(merge.value, (a) => src.resolveAlias(a)).reverse())
    all.push(...mapPairs(src, m, path, inside));
  for (const p of map.items) if (p !== merge) all.push(p as Pair);
  const place = new Map<unknown, number>();
  const out: Pair[] = [];
  for (const p of all) {
    const key = isScalar(p.key) ? p.key.value : p.key;
    const i = place.get(key);
    if (i === undefined) {
      place.set(key, out.length);
      out.push(p);
    } else out[i] = p;
  }
  return out;
}
