// `play completion [bash|zsh]`: the shell's completion script, yargs' own (its bash and zsh templates),
// which asks `play --get-yargs-completions WORDS...` at each Tab. yargs answers with the commands and
// options; play adds what only it knows: playbook names (as `play list` finds them) where a playbook
// goes, and the inventory's group and host names after -l/--limit and `play hosts` (read from the
// inventory -i, $PLAY_INVENTORY or the lab's names; nothing when it cannot be read without a password).
import yargs, { type Argv } from 'yargs';
import { PlayError, UsageError } from '../core/errors.js';
import type { Io } from './io.js';

export const SHELLS = ['bash', 'zsh'] as const;
export type Shell = (typeof SHELLS)[number];

/** The shell $SHELL names (zsh when its name says so, else bash), as yargs itself picks its template. */
export function shellOf(env: NodeJS.ProcessEnv = process.env): Shell {
  return /zsh/.test(env.SHELL ?? '') || /zsh/.test(env.ZSH_NAME ?? '') ? 'zsh' : 'bash';
}

/** yargs' completion script for `shell`: its template is chosen from $SHELL when yargs is built. */
export function completionScript(shell: Shell): Promise<string> {
  const saved = { SHELL: process.env.SHELL, ZSH_NAME: process.env.ZSH_NAME };
  process.env.SHELL = `/bin/${shell}`;
  delete process.env.ZSH_NAME;
  let y: Argv;
  try {
    y = yargs().scriptName('play').completion('completion', false);
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
  return new Promise((done, fail) => {
    y.exitProcess(false).parse(['completion'], {}, (e, _argv, output) => (e ? fail(e) : done(`${output}\n`)));
  });
}

/** Playbook names where a playbook goes: the first word, or after `drift` and `graph`. */
function wantsPlaybook(words: readonly string[], current: string): boolean {
  if (current.startsWith('-')) return false;
  const before = words.slice(0, -1);
  return before.length === 0 || (before.length >= 1 && ['drift', 'graph'].includes(before[0]!));
}

/** Group and host names where a host pattern goes: after -l/--limit, or as `play hosts PATTERN`. */
function wantsPattern(argv: Record<string, unknown>, words: readonly string[], current: string): boolean {
  const limit = argv.limit ?? argv.l;
  if (typeof limit === 'string' && limit === current && !current.startsWith('-')) return true;
  return words.length === 2 && words[0] === 'hosts';
}

async function playbookNames(): Promise<string[]> {
  const { listPlaybookFiles, playbookName } = await import('../playbook/load.js');
  return listPlaybookFiles().map(playbookName);
}

/** The inventory's names, after the last `:` of a pattern being typed (`tor:!tor<Tab>`). */
async function patternNames(option: unknown, current: string): Promise<string[]> {
  try {
    const [{ inventoryPaths }, { loadInventory }] = await Promise.all([
      import('./inventory-path.js'),
      import('../inventory/load.js'),
    ]);
    const inv = loadInventory(inventoryPaths(option as string | string[] | undefined));
    const head = current.replace(/[^:]*$/, '');
    const negation = /^[!&]/.exec(current.slice(head.length))?.[0] ?? '';
    return [...inv.groups.keys(), ...inv.hosts.map((h) => h.name)].map((n) => `${head}${negation}${n}`);
  } catch {
    return []; // no inventory, or one that needs a vault password: no names, never an error at Tab
  }
}

type Done = (completions: string[]) => void;
type Defaults = (onCompleted?: (err: Error | null, completions: string[] | undefined) => void) => void;

/** yargs' completions, and play's names where they fit. */
function complete(current: string, argv: Record<string, unknown>, defaults: Defaults, done: Done): void {
  const words = (argv._ as (string | number)[]).map(String).slice(1); // [0] is the program's name
  // Where a value goes (a pattern, a shell), only values; where a playbook goes, commands too.
  const only = wantsPattern(argv, words, current)
    ? () => patternNames(argv.inventory, current)
    : words.length === 2 && words[0] === 'completion'
      ? async () => [...SHELLS]
      : null;
  if (only) {
    void only().then(done, () => done([]));
    return;
  }
  defaults((_e, base) => {
    const more = wantsPlaybook(words, current) ? playbookNames() : Promise.resolve([]);
    void more
      .catch(() => [])
      .then((names) => {
        // `$0` is yargs' name for the default command (`play PLAYBOOK`): its playbooks stand for it.
        done([...(base ?? []).filter((c) => !c.startsWith('$0')), ...names]);
      });
  });
}

/**
 * Thrown before any command's handler while the script asks for completions: yargs answers a question
 * about a command's words by parsing them in that command, and would then run it (a Tab must never
 * start a drift run). main.ts ends such a run with exit 0 and nothing more said.
 */
export class CompletionAnswered extends PlayError {
  constructor() {
    super('completions answered', 0);
  }
}

/** `play completion [bash|zsh]`, and the answers to the script's questions. */
export function completionCommands<T>(y: Argv<T>, io: Io, argv: readonly string[]) {
  // A word half typed (`--mark<Tab>`) is no option yet: strict mode would refuse it before yargs answers.
  if (argv.includes('--get-yargs-completions')) y.strict(false);
  return (
    y
      // Hidden: registers play's completer for `--get-yargs-completions`, which the scripts call.
      .completion('completion-script', false, complete as never)
      // Declared (hidden) so that strict mode, which a command's own parse applies, lets the scripts' question through.
      .option('get-yargs-completions', { type: 'string', hidden: true })
      .middleware((argv) => {
        if (argv['get-yargs-completions'] !== undefined) throw new CompletionAnswered();
      })
      .command(
        'completion [shell]',
        'print the shell completion script: bash or zsh (default: from $SHELL); try: source <(play completion bash)',
        (c) =>
          c
            // Checked in the handler, not as yargs choices: those are checked at every Tab, with a message.
            .positional('shell', { type: 'string', describe: 'bash or zsh (default: from $SHELL)' })
            .example([
              ['source <(play completion bash)', 'completion in this bash'],
              ['play completion bash > /etc/bash_completion.d/play', 'for every bash'],
              ['play completion zsh > ~/.zfunc/_play', 'for zsh (~/.zfunc in fpath, then compinit)'],
            ]),
        async (a) => {
          const shell = (a.shell as Shell | undefined) ?? shellOf();
          if (!SHELLS.includes(shell)) throw new UsageError(`completion: shell '${shell}': expected bash or zsh`);
          io.out.write(await completionScript(shell));
        },
      )
  );
}
