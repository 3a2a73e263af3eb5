// A Remote that runs `kubectl ...` scripts against the kubectl stand-in (lab/cluster/, a TEST DOUBLE)
// in this process, so the real KubectlCluster (runner/rolling/cluster.ts) and the real node cycle run
// against a cluster that can say no (budgets answering 429, cordons, nodes not Ready), without SSH.
// It reads the sh words play's quoting writes (plain words and '...' with '\'' inside) and nothing else.
import type { ExecResult, Remote } from '../../runner/core/step.js';
import type { Script } from '../../runner/core/quote.js';
import { kubectl } from '../../lab/cluster/kubectl.js';

/** The words of a command line written by sh`` (quote.ts): bare words and single-quoted runs. */
export function shWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new Error(`unbalanced quote in ${text}`);
      cur += text.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '\\' && text[i + 1] === "'") {
      cur += "'";
      i++;
      inWord = true;
    } else if (c === ' ') {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else if (/[A-Za-z0-9_@%+=:,./-]/.test(c)) {
      cur += c;
      inWord = true;
    } else throw new Error(`the in-process kubectl reads plain commands only, not ${JSON.stringify(c)} in ${text}`);
  }
  if (inWord) words.push(cur);
  return words;
}

export class InProcessKubectl implements Remote {
  readonly name = 'control1';
  /** Every kubectl command run, as words after `kubectl`. */
  readonly commands: string[][] = [];

  constructor(private readonly stateFile: string) {}

  async run(script: Script): Promise<ExecResult> {
    if (script.shell !== 'sh') throw new Error('the control host runs sh');
    const [program, ...args] = shWords(script.text);
    if (!program?.endsWith('kubectl')) throw new Error(`not a kubectl command: ${script.text}`);
    this.commands.push(args);
    const r = kubectl(this.stateFile, args);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  }
}
