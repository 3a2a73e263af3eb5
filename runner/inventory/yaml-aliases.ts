// The aliases of a YAML document, indexed in one walk: what each stands for (yaml's rule: the
// last node before it with its anchor; yaml's Alias.resolve walks the whole document for each
// alias, quadratic in a file with an alias per host), and how many entries (mapping pairs and
// sequence items, nested aliases expanded) each stands for, so a walk can refuse an alias bomb
// before following it instead of after billions of steps.
import { type Alias, type Document, isAlias, isCollection, isNode, isPair, type Node } from 'yaml';

export class AliasIndex {
  readonly #targets = new Map<Alias, Node | undefined>();
  /** Entries under each node and pair, aliases expanded; a node's count is known once it is walked. */
  readonly #entries = new Map<unknown, number>();

  constructor(doc: Document) {
    const anchored = new Map<string, Node>();
    // Depth first, in document order (yaml's visit order), with an explicit stack: each node is
    // seen before its children (anchors and aliases are matched then) and counted after them.
    const stack: [unknown, boolean][] = [[doc.contents, false]];
    while (stack.length > 0) {
      const [node, counted] = stack.pop()!;
      if (counted) {
        this.#entries.set(node, this.#entriesBelow(node));
        continue;
      }
      if (isAlias(node)) {
        const target = anchored.get(node.source);
        this.#targets.set(node, target);
        // An alias inside its own anchor's node has no count yet: it is a cycle, which the
        // readers refuse on their own ("defined inside itself").
        this.#entries.set(node, target ? (this.#entries.get(target) ?? 0) : 0);
        continue;
      }
      if (isNode(node) && node.anchor) anchored.set(node.anchor, node);
      stack.push([node, true]);
      if (isPair(node)) stack.push([node.value, false], [node.key, false]);
      else if (isCollection(node)) for (let i = node.items.length - 1; i >= 0; i--) stack.push([node.items[i], false]);
    }
  }

  /** The node `alias` stands for, if any. */
  target(alias: Alias): Node | undefined {
    return this.#targets.get(alias);
  }

  /** How many entries `alias` stands for, aliases within expanded (at least 1). */
  entries(alias: Alias): number {
    return Math.max(1, this.#entries.get(alias) ?? 0);
  }

  #entriesBelow(node: unknown): number {
    if (isPair(node)) return (this.#entries.get(node.key) ?? 0) + (this.#entries.get(node.value) ?? 0);
    if (!isCollection(node)) return 0;
    let sum = node.items.length;
    for (const item of node.items) sum += this.#entries.get(item) ?? 0;
    return sum;
  }
}
