// A PowerShell syntax check without PowerShell: tree-sitter-powershell's WASM grammar run by
// web-tree-sitter (no native build). Reports every ERROR node (text the grammar could not fit) and
// every MISSING node (a token the parser had to invent, such as a closing brace), with its line
// and column (1-based) and an excerpt of the text. The grammar is stricter than PowerShell in a few
// places, never looser in what we use: a clean parse here is necessary, and the bootstrap's own
// [Parser]::ParseInput on the host is the final word.
import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';

export interface PsSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly text: string;
}

let loaded: Promise<Parser> | null = null;

function parser(): Promise<Parser> {
  loaded ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve('tree-sitter-powershell/tree-sitter-powershell.wasm');
    const language = await Language.load(wasm);
    const p = new Parser();
    p.setLanguage(language);
    return p;
  })();
  return loaded;
}

/** The ABI version of the loaded grammar (web-tree-sitter refuses versions it cannot run). */
export async function grammarAbiVersion(): Promise<number> {
  return (await parser()).language!.abiVersion;
}

function collect(node: Node, out: PsSyntaxError[]): void {
  if (node.isError || node.isMissing) {
    const text = node.isMissing ? `missing ${node.type}` : node.text;
    out.push({
      line: node.startPosition.row + 1,
      column: node.startPosition.column + 1,
      text: text.length > 80 ? `${text.slice(0, 80)}…` : text,
    });
    if (node.isMissing) return;
  }
  for (const child of node.children) if (child) collect(child, out);
}

export async function parsePowerShell(text: string): Promise<{ errors: PsSyntaxError[] }> {
  const tree = (await parser()).parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    const errors: PsSyntaxError[] = [];
    collect(tree.rootNode, errors);
    return { errors };
  } finally {
    tree.delete();
  }
}

/** The errors with a few lines of context, for assertion messages. */
export function describeErrors(text: string, errors: readonly PsSyntaxError[]): string {
  const lines = text.split('\n');
  return (
    errors
      .slice(0, 5)
      .map((e) => {
        const around = lines
          .slice(Math.max(0, e.line - 2), e.line + 1)
          .map((l, i) => `  ${Math.max(1, e.line - 1) + i}| ${l}`)
          .join('\n');
        return `line ${e.line}, column ${e.column}: ${JSON.stringify(e.text)}\n${around}`;
      })
      .join('\n') + (errors.length > 5 ? `\n… ${errors.length - 5} more` : '')
  );
}
