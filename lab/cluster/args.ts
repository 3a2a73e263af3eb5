// The kubectl stand-in's command line (lab/cluster/, a TEST DOUBLE): the flags the playbooks and the rolling
// runner pass, and kubectl's errors for what it cannot parse. Anything else is refused, saying so.

export class KubectlError extends Error {}

export const notFound = (kind: string, name: string) =>
  new KubectlError(`Error from server (NotFound): ${kind} "${name}" not found`);
export const notImplemented = (what: string) =>
  new KubectlError(`error: the kubectl stand-in (play lab, a test double) does not implement ${what}`);

export interface Parsed {
  words: string[];
  output?: string;
  namespace?: string;
  allNamespaces: boolean;
  fieldSelector?: string;
  labelSelector?: string;
  flags: Set<string>;
  timeout?: string;
  gracePeriod?: string;
}

const BOOLEAN_FLAGS = new Set(['--ignore-daemonsets', '--delete-emptydir-data', '--delete-local-data', '--force']);

/** `-o X`, `-o=X`, `-oX`, `--output X`, `--output=X` and likewise for the other valued flags. */
const VALUED: ReadonlyArray<[RegExp, keyof Parsed]> = [
  [/^(-o|--output)$/, 'output'],
  [/^(-n|--namespace)$/, 'namespace'],
  [/^--field-selector$/, 'fieldSelector'],
  [/^(-l|--selector)$/, 'labelSelector'],
  [/^--timeout$/, 'timeout'],
  [/^--grace-period$/, 'gracePeriod'],
  [/^--kubeconfig$/, 'words'], // the stand-in has one cluster: parsed, dropped
];

export function parseArgs(args: readonly string[]): Parsed {
  const p: Parsed = { words: [], flags: new Set(), allNamespaces: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.split('=')[0]!;
    const valued = VALUED.find(([re]) => re.test(name));
    if (valued) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      if (v === undefined) throw new KubectlError(`error: flag needs an argument: ${name}`);
      if (valued[1] !== 'words') (p as unknown as Record<string, string>)[valued[1]] = v;
    } else if (/^-o[a-z]/.test(a)) p.output = a.slice(2);
    else if (a === '-A' || a === '--all-namespaces') p.allNamespaces = true;
    else if (BOOLEAN_FLAGS.has(name)) p.flags.add(name === '--delete-local-data' ? '--delete-emptydir-data' : name);
    else if (a.startsWith('-')) throw notImplemented(`the flag ${a}`);
    else p.words.push(a);
  }
  return p;
}

/** `nodes NAME`, `node/NAME` -> [kind, name?] */
export function resource(words: readonly string[]): [string, string | undefined] {
  const [first, second, ...more] = words;
  if (!first) throw new KubectlError('error: You must specify the type of resource to get.');
  if (more.length > 0) throw notImplemented('more than one resource name');
  const slash = first.indexOf('/');
  if (slash > 0) {
    if (second !== undefined)
      throw new KubectlError(
        'error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form',
      );
    return [first.slice(0, slash), first.slice(slash + 1)];
  }
  return [first, second];
}

/** `a=b,c=d` (the only selector form the stand-in takes) -> {a: b, c: d}. */
export function equalitySelector(text: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(',').filter((x) => x !== '')) {
    const m = /^([^=!]+)==?([^=]*)$/.exec(part);
    if (!m) throw notImplemented(`the ${flag} term ${part} (only key=value)`);
    out[m[1]!.trim()] = m[2]!.trim();
  }
  return out;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The one node a cordon/uncordon/drain names (`NAME` or `node/NAME`). */
export function oneNode(p: Parsed, verb: string): string {
  const names = p.words.slice(1);
  if (names.length !== 1) throw notImplemented(`${verb} with ${names.length} node names (give exactly one)`);
  return names[0]!.replace(/^(node|nodes|no)\//, '');
}
