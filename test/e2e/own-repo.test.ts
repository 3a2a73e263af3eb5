// A user's own repository of playbooks, end to end, as a user types it, in a fresh folder outside
// the checkout: `play init`, `npm install` (play as a `file:` dependency on this checkout; TypeScript,
// tsx and ava from the npm registry: without it this test fails, it does not skip), `tsc --noEmit`,
// the scaffold's own test (which fails when the plan changes), the scaffolded playbook on the lab host
// linux5 (check, apply, a second run with nothing changed), a typo in a task id (a TypeScript error
// and exit 65), and the shipped playbooks from there: by name, and imported as `play/playbooks/*`.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { ensureLab, onLabHost, type Lab } from '../helpers/lab.js';
import { play, scratch } from '../helpers/play.js';

const HOST = 'linux5'; // this file's own lab host (docs/lab.md#who-uses-which-host)

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A program as a user runs it in the repository (npm, npx), with its exit code, output and time. */
function run(cwd: string, command: string, args: string[], timeoutMs = 120_000): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PLAY_INVENTORY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: Date.now() - started }));
  });
}

let lab: Lab;
let home: string;
let repo: string;
const remoteDir = scratch('own-repo');

test.before(async () => {
  lab = await ensureLab({ linux: 5 });
  home = mkdtempSync(join(tmpdir(), 'play-own-repo-'));
  repo = join(home, 'infra');
});

test.after.always('remove the repository and the files on the lab host', async () => {
  if (home) rmSync(home, { recursive: true, force: true });
  if (lab) await onLabHost(lab, HOST, `rm -rf ${remoteDir}`).catch(() => {});
});

test.serial(
  'play init writes the repository and prints what to run next; a second init is refused (exit 64)',
  async (t) => {
    const started = Date.now();
    const init = await play(['init', 'infra'], {}, home);
    t.is(init.code, 0, init.stderr);
    t.log(`play init: ${Date.now() - started} ms`);
    t.regex(
      init.stdout,
      /wrote package\.json, \.gitignore, inventory\/group_vars\/all\.yml, inventory\/group_vars\/windows\.yml, inventory\/hosts\.yml, playbooks\/example\.ts, playbooks\/lib\/registry-value\.ts, test\/example\.test\.ts, test\/registry-value\.test\.ts, tsconfig\.json in /,
    );
    t.regex(
      init.stdout,
      /\n {2}cd infra\n {2}npm install .*\n {2}npm test .*\n {2}npx tsc --noEmit .*\n[\s\S]*npx play example -i inventory --check --diff/,
    );
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    t.like(pkg, { name: 'infra', type: 'module', scripts: { test: 'ava' } });
    t.regex(pkg.dependencies.play, /^file:\//);

    const again = await play(['init', 'infra'], {}, home);
    t.is(again.code, 64);
    t.regex(
      again.stderr,
      new RegExp(`^play: init: ${join(repo, 'package.json')} already exists \\(and \\.gitignore, `),
    );
  },
);

test.serial(
  'npm install; the repository type-checks and its own test passes, and fails when the plan changes',
  async (t) => {
    t.timeout(600_000, 'npm install with a cold cache downloads TypeScript, tsx and ava');
    const install = await run(repo, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], 600_000);
    t.is(install.code, 0, install.stderr);
    t.log(`npm install: ${install.ms} ms`);
    const tsc = await run(repo, 'npx', ['tsc', '--noEmit']);
    t.is(tsc.code, 0, tsc.stdout);
    t.log(`tsc --noEmit: ${tsc.ms} ms`);
    const own = await run(repo, 'npm', ['test']);
    t.is(own.code, 0, own.stdout + own.stderr);
    // The Windows step's three runs wait for a Windows host (PLAY_TEST_WINDOWS_HOST): a todo here.
    t.regex(own.stdout, /3 tests passed[\s\S]*1 test todo/);
    t.log(`npm test: ${own.ms} ms`);

    const vars = join(repo, 'inventory/group_vars/all.yml');
    const text = readFileSync(vars, 'utf8');
    writeFileSync(vars, text.replace('app_port: 8080', 'app_port: 8081'));
    try {
      const changed = await run(repo, 'npm', ['test']);
      t.not(changed.code, 0);
      t.regex(changed.stdout, /port=8081/);
    } finally {
      writeFileSync(vars, text);
    }
  },
);

test.serial('the example playbook on a lab host: check (exit 2), apply, a second run changes nothing', async (t) => {
  // The lab host joins group web through a second inventory source; inventory/group_vars still apply.
  const labHosts = join(home, 'lab-hosts.yml');
  const host = lab.host(HOST);
  const connection = {
    ansible_host: host.address,
    ansible_ssh_private_key_file: lab.keyPath,
    ansible_ssh_common_args: `-o UserKnownHostsFile=${lab.knownHostsPath}`,
  };
  writeFileSync(labHosts, YAML.stringify({ all: { children: { web: { hosts: { [HOST]: connection } } } } }));
  const args = ['play', 'example', '-i', 'inventory', '-i', labHosts, '-l', HOST, '-e', `app_dir=${remoteDir}`];

  const check = await run(repo, 'npx', [...args, '--check', '--json']);
  t.is(check.code, 2, check.stderr);
  t.deepEqual(
    JSON.parse(check.stdout).hosts[HOST].steps.map((s: any) => [s.task, s.kind, s.action]),
    [
      ['dir', 'linux.directory', 'create'],
      ['config', 'linux.file', 'create'],
      ['port', 'linux.lineInFile', 'create'],
    ],
  );
  t.is((await onLabHost(lab, HOST, `test -e ${remoteDir} && echo present || echo absent`)).trim(), 'absent');

  const apply = await run(repo, 'npx', [...args, '--json']);
  t.is(apply.code, 0, apply.stderr);
  t.like(JSON.parse(apply.stdout).summary, { changed: 1, failed: 0 });
  t.is(
    await onLabHost(lab, HOST, `cat ${remoteDir}/app.conf ${remoteDir}/settings.ini`),
    `# managed by play\nname=${HOST}\nport=8080\n`,
  );

  const again = await run(repo, 'npx', [...args, '--json']);
  t.is(again.code, 0, again.stderr);
  t.deepEqual(
    JSON.parse(again.stdout).hosts[HOST].steps.map((s: any) => s.status),
    ['ok', 'ok', 'ok'],
  );
  t.log(`check ${check.ms} ms, apply ${apply.ms} ms, second run ${again.ms} ms`);
});

test.serial('a typo in a task id: a TypeScript error, and exit 65 naming it when the playbook runs', async (t) => {
  const typo = join(repo, 'playbooks/typo.ts');
  const example = readFileSync(join(repo, 'playbooks/example.ts'), 'utf8');
  writeFileSync(typo, example.replace("name: 'example'", "name: 'typo'").replace("needs: ['dir']", "needs: ['dri']"));
  try {
    const tsc = await run(repo, 'npx', ['tsc', '--noEmit']);
    t.not(tsc.code, 0, tsc.stdout);
    t.regex(
      tsc.stdout,
      /playbooks\/typo\.ts\(\d+,\d+\): error TS2322: Type '"dri"' is not assignable to type '"config" \| "dir" \| "port" \| "winPort"'/,
    );
    const r = await run(repo, 'npx', ['play', 'typo', '-i', 'inventory', '--check']);
    t.is(r.code, 65, r.stderr);
    t.regex(
      r.stderr,
      /play: playbook typo: task 'config' needs 'dri', which is not a task of this playbook \(tasks: dir, config, port, winPort\)\n$/,
    );
  } finally {
    rmSync(typo);
  }
});

test.serial(
  'the shipped playbooks from the repository: listed, run by name, and their parts imported as play/playbooks/*',
  async (t) => {
    const list = await run(repo, 'npx', ['play', 'list']);
    t.is(list.code, 0, list.stderr);
    t.deepEqual(
      ['example', 'tor-gateway', 'onboard-windows'].filter((n) => !new RegExp(`^${n} `, 'm').test(list.stdout)),
      [],
    );
    const graph = await run(repo, 'npx', ['play', 'graph', 'tor-gateway']);
    t.is(graph.code, 0, graph.stderr);
    t.regex(graph.stdout, /^tor-gateway: /);
    // Run, by name, on this file's host: check mode only (bench's files and sysctl are left as they are).
    const bench = await run(repo, 'npx', ['play', 'bench', '-i', lab.inventoryPath, '-l', HOST, '--check', '--json']);
    t.true([0, 2].includes(bench.code), bench.stderr);
    t.like(JSON.parse(bench.stdout), { playbook: 'bench', mode: 'check', summary: { failed: 0, unreachable: 0 } });

    const shipped = join(repo, 'test/shipped.test.ts');
    writeFileSync(
      shipped,
      [
        "import test from 'ava';",
        "import { taskOrder } from 'play';",
        "import { timeZone } from 'play/windows';",
        "import torGateway from 'play/playbooks/tor-gateway';",
        '',
        "test('a shipped playbook and a Windows step, from the package', (t) => {",
        "  t.true(taskOrder(torGateway).includes('config'));",
        "  t.is(timeZone({ id: 'UTC' }).kind, 'windows.timeZone');",
        '});',
        '',
      ].join('\n'),
    );
    try {
      const tsc = await run(repo, 'npx', ['tsc', '--noEmit']);
      t.is(tsc.code, 0, tsc.stdout);
      const r = await run(repo, 'npx', ['ava', 'test/shipped.test.ts']);
      t.is(r.code, 0, r.stdout + r.stderr);
    } finally {
      rmSync(shipped);
    }
  },
);
