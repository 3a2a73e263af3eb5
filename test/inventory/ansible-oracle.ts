// Runs Debian's ansible-core as the reference for host patterns and variable precedence.
// Without it the oracle tests fail (CI installs it), they never skip.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** `ansible-inventory -i A -i B ... ARGS` (--list, or --host NAME) as parsed JSON. */
export async function ansibleInventory(sources: readonly string[], args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run('ansible-inventory', [...sources.flatMap((s) => ['-i', resolve(s)]), ...args]);
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
