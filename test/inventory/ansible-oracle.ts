// Runs Debian's ansible-core as the reference for host patterns and variable precedence.
// Without it the oracle tests fail (CI installs it), they never skip.
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** Where ansible runs: an empty directory with an empty ansible.cfg, so no local config applies. */
export const oracleCwd = mkdtempSync(join(tmpdir(), 'play-oracle-'));
writeFileSync(join(oracleCwd, 'ansible.cfg'), '');
process.on('exit', () => rmSync(oracleCwd, { recursive: true, force: true }));

const ENV = {
  ...process.env,
  ANSIBLE_CONFIG: join(oracleCwd, 'ansible.cfg'),
  ANSIBLE_LOCALHOST_WARNING: 'False',
  ANSIBLE_INVENTORY_UNPARSED_WARNING: 'False',
  ANSIBLE_NOCOLOR: '1',
};

let checked: string | null | undefined;

/** Throws, with the fix, when ansible is not installed (checked once per test file). */
export function requireAnsible(): void {
  if (checked === undefined) {
    const r = spawnSync('ansible-inventory', ['--version'], { env: ENV, encoding: 'utf8' });
    checked =
      r.error || r.status !== 0
        ? 'ansible-core is the oracle for these tests and is not installed: apt-get install ansible-core' +
          (r.error ? ` (${r.error.message})` : ` (${r.stderr.trim()})`)
        : null;
  }
  if (checked) throw new Error(checked);
}

/** At most this many ansible processes at once: each takes about a second of CPU. */
const CONCURRENCY = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  // A finishing call hands its slot straight to the next waiting one.
  if (running >= CONCURRENCY) await new Promise<void>((go) => waiting.push(go));
  else running++;
  try {
    return await new Promise((done, fail) => {
      execFile(cmd, args, { env: ENV, cwd: oracleCwd, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) fail(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stderr}`));
        else done({ stdout, stderr });
      });
    });
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export interface ListedHosts {
  hosts: string[];
  warnings: string;
}

/** `ansible PATTERN -i FILE --list-hosts [extra]`: the host names in order, and ansible's warnings. */
export async function ansibleListHosts(file: string, pattern: string, extra: string[] = []): Promise<ListedHosts> {
  const { stdout, stderr } = await run('ansible', [pattern, '-i', resolve(file), '--list-hosts', ...extra]);
  const lines = stdout.split('\n');
  const header = lines.findIndex((l) => /^\s*hosts \(\d+\):\s*$/.test(l));
  if (header < 0) throw new Error(`no 'hosts (N):' header in ansible's output:\n${stdout}`);
  const count = Number(/\((\d+)\)/.exec(lines[header]!)![1]);
  const hosts = lines
    .slice(header + 1)
    .map((l) => l.trim())
    .filter((l) => l);
  if (hosts.length !== count)
    throw new Error(`ansible announced ${count} hosts and listed ${hosts.length}:\n${stdout}`);
  return { hosts, warnings: stderr.replace(/\s+/g, ' ') };
}

/** `ansible-inventory -i FILE --host NAME`: the host's merged variables. */
export async function ansibleHostVars(file: string, host: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('ansible-inventory', ['-i', resolve(file), '--host', host]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** `ansible-inventory -i FILE --list`: ansible accepts the file (warnings about it are failures). */
export async function ansibleInventoryList(file: string): Promise<{ json: Record<string, unknown>; stderr: string }> {
  const { stdout, stderr } = await run('ansible-inventory', ['-i', resolve(file), '--list']);
  return { json: JSON.parse(stdout) as Record<string, unknown>, stderr };
}

/** A source as ansible is given it: a path made absolute (ansible runs elsewhere), a host list (`h1,h2,`) as is. */
const sourceArg = (s: string) => (s.includes(',') && !existsSync(s) ? s : resolve(s));

/** `ansible-inventory -i A -i B ... ARGS` (--list, or --host NAME) as parsed JSON. */
export async function ansibleInventory(sources: readonly string[], args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('ansible-inventory', [...sources.flatMap((s) => ['-i', sourceArg(s)]), ...args]);
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The interpreter on the `ansible` script's #! line: the Python that has ansible-core installed. */
function ansiblePythonPath(): string {
  const which = spawnSync('sh', ['-c', 'command -v ansible'], { encoding: 'utf8' }).stdout.trim();
  const shebang = /^#!\s*(\S+)/.exec(readFileSync(which, 'utf8').split('\n')[0]!);
  if (!shebang) throw new Error(`cannot tell which Python runs ${which}`);
  return shebang[1]!;
}

/**
 * Runs `code` in the Python that ansible-core uses, with `input` as JSON in the variable `data`;
 * the code sets `result`, which comes back as JSON. For calling ansible's own helpers directly.
 */
export function ansiblePython<T>(code: string, input: unknown): T {
  requireAnsible();
  const script = `import json, sys\ndata = json.load(sys.stdin)\n${code}\njson.dump(result, sys.stdout)\n`;
  const r = spawnSync(ansiblePythonPath(), ['-c', script], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: ENV,
  });
  if (r.error || r.status !== 0) throw new Error(`python3 failed: ${r.error?.message ?? r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

let vaultChecked: string | null | undefined;

/** `ansible-vault ARGS` (from Debian's ansible-core), synchronously; its stdout. Fails, never skips, without it. */
export function ansibleVault(args: string[]): string {
  if (vaultChecked === undefined) {
    const r = spawnSync('ansible-vault', ['--version'], { env: ENV, encoding: 'utf8' });
    vaultChecked =
      r.error || r.status !== 0
        ? 'ansible-vault (ansible-core) is the oracle for the vault tests and is not installed: apt-get install ansible-core'
        : null;
  }
  if (vaultChecked) throw new Error(vaultChecked);
  const r = spawnSync('ansible-vault', args, { env: ENV, cwd: oracleCwd, encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new Error(`ansible-vault ${args.join(' ')} failed: ${r.error?.message ?? r.stderr}`);
  return r.stdout;
}

/** How ansible-vault is told the password: `--vault-password-file FILE` (format 1.1) or `--vault-id LABEL@FILE` (1.2). */
export const vaultPasswordArgs = (passwordFile: string, label?: string) =>
  label ? ['--vault-id', `${label}@${passwordFile}`] : ['--vault-password-file', passwordFile];

/** `ansible-vault encrypt_string` of each value: name -> its vault text (the envelope, one line per row). */
export function encryptStrings(
  values: Record<string, string>,
  passwordFile: string,
  label?: string,
): Record<string, string> {
  const names = Object.keys(values);
  const out = ansibleVault([
    'encrypt_string',
    ...vaultPasswordArgs(passwordFile, label),
    ...names.flatMap((n) => ['--name', n]),
    ...names.map((n) => values[n]!),
  ]);
  const found: Record<string, string> = {};
  for (const m of out.matchAll(/^(\S+): !vault \|\n((?: {2,}\S+\n?)+)/gm))
    found[m[1]!] = m[2]!
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join('\n');
  if (Object.keys(found).length !== names.length) throw new Error(`unexpected encrypt_string output:\n${out}`);
  return found;
}

/** A vault text as a YAML `!vault |` value, its rows indented by `indent` spaces. */
export const vaultYaml = (vaultText: string, indent: number) =>
  `!vault |\n${vaultText
    .split('\n')
    .map((l) => ' '.repeat(indent) + l)
    .join('\n')}\n`;

/** `ansible-vault encrypt FILE` in place. */
export function encryptFile(file: string, passwordFile: string, label?: string): void {
  ansibleVault(['encrypt', ...vaultPasswordArgs(passwordFile, label), resolve(file)]);
}

/**
 * The variables `names` of every host as ansible renders them, vault values decrypted: `ansible all -c local
 * -m debug` (an action on the controller: no host is reached). `extra`: the vault options.
 */
export async function ansibleVarValues(
  sources: readonly string[],
  names: readonly string[],
  extra: string[],
): Promise<Record<string, Record<string, unknown>>> {
  const msg = `{{ hostvars[inventory_hostname] | dict2items | selectattr('key', 'in', ${JSON.stringify(names)}) | items2dict | to_json }}`;
  const { stdout } = await run('ansible', [
    'all',
    ...sources.flatMap((s) => ['-i', resolve(s)]),
    '-c',
    'local',
    '-m',
    'debug',
    '-a',
    `msg=${msg}`,
    '-o',
    ...extra,
  ]);
  const out: Record<string, Record<string, unknown>> = {};
  for (const m of stdout.matchAll(/^(\S+) \| SUCCESS => (\{.*\})$/gm))
    out[m[1]!] = JSON.parse((JSON.parse(m[2]!) as { msg: string }).msg) as Record<string, unknown>;
  return out;
}
