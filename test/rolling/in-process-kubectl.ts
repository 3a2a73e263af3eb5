// A Remote that runs `kubectl ...` scripts with the REAL kubectl (/usr/bin/kubectl) against the
// Kubernetes API double (lab/cluster/api/, a TEST DOUBLE) served on 127.0.0.1 from this process, over
// the test's cluster state file: the real KubectlCluster (runner/rolling/cluster.ts) and the real node
// cycle run against a cluster that can say no (budgets answering 429, cordons, nodes not Ready), through
// the client play drives in production, without SSH. It reads the sh words play's quoting writes (plain
// words and '...' with '\'' inside) and nothing else.
import type { ExecOptions, ExecResult, Remote } from '../../runner/core/step.js';
import type { Script } from '../../runner/core/quote.js';
import { Secret } from '../../runner/core/secret.js';
import { type ApiDouble, KUBECTL, startApiDouble } from '../lab/cluster/api-double.js';

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
    } else throw new Error(`the kubectl remote reads plain commands only, not ${JSON.stringify(c)} in ${text}`);
  }
  if (inWord) words.push(cur);
  return words;
}

export class InProcessKubectl implements Remote {
  readonly name = 'control1';
  /** Every kubectl command run, as words after `kubectl`. */
  readonly commands: string[][] = [];
  #api: Promise<ApiDouble> | undefined;

  /** `kubectl`: the client binary (another version of kubectl, say). */
  constructor(
    private readonly stateFile: string,
    private readonly kubectl = KUBECTL,
  ) {}

  async run(script: Script, options: ExecOptions = {}): Promise<ExecResult> {
    if (script.shell !== 'sh') throw new Error('the control host runs sh');
    const [program, ...args] = shWords(script.text);
    if (!program?.endsWith('kubectl')) throw new Error(`not a kubectl command: ${script.text}`);
    this.commands.push(args);
    // Started at the first command; it does not keep the test process alive.
    this.#api ??= startApiDouble(this.stateFile).then((api) => {
      api.unref();
      return api;
    });
    const input = options.stdin;
    const stdin = input instanceof Secret ? input.reveal() : input;
    const r = await (await this.#api).kubectl(args, this.kubectl, stdin);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  }
}
