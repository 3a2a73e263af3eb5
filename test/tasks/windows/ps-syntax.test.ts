// Every PowerShell text a Windows step can send, checked by PowerShell's own parser and refused if
// Windows PowerShell 5.1 cannot run it (test/helpers/ps-syntax.ts): the bootstrap, each function definition, and
// the full program of every call each factory makes (probe and apply, run on the simulated node:
// sim-node.ts) with representative and hostile option values. Each program's calls literal is also
// read back with PowerShell's quoting rules (‘ ’ ‚ ‛ end a '...' string too) and must give the exact JSON.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { StepOptionError } from '../../../runner/core/errors.js';
import { isSecret, Secret } from '../../../runner/core/secret.js';
import type { AnyStep, CallProbe } from '../../../runner/core/step.js';
import { BOOTSTRAP } from '../../../runner/transport/powershell/bootstrap.js';
import { program } from '../../../runner/transport/powershell/program.js';
import * as windows from '../../../tasks/windows/index.js';
import { PLAY_FUNCTIONS } from '../../../tasks/windows/remote/functions.js';
import { writeFile } from '../../../lab/windows/file-store.js';
import { createNetwork } from '../../../lab/windows/hns-store.js';
import type { SimulatedWindowsNode } from '../../../lab/windows/model.js';
import type { NodeState } from '../../../lab/windows/node-state.js';
import { describeErrors, parsePowerShell, powerShellVersion } from '../../helpers/ps-syntax.js';
import { callsOf } from './calls-literal.js';
import { addService, bootNow, simulatedNode, withDocker } from './sim-node.js';
import { STEP_FOLDER_CASES } from './step-folders.js';
import { plan } from './step-runs.js';

const H = `x'y‘z’w‚v‛u "q" $(Restart-Computer -Force) \`whoami\` ; rm -r C:\\ # @{a=1} $env:PATH %TEMP%`;
const HL = `${H}\r\nsecond line\n'@\n"@`;
const PROXY_BIN = `"C:\\Program Files\\k\\kube-proxy.exe" --resolv-conf="" ${H}`;
const PATH = "C:\\k\\it's $(reboot) ‘q’ `x`;y\\file.txt";

test('the checker is PowerShell: its parser runs, and a clean text has no findings', async (t) => {
  t.regex(await powerShellVersion(), /^7\./);
  t.deepEqual((await parsePowerShell("Write-Output 'ok'")).errors, []);
  // 5.1's own -Leaf is not 7's -LeafBase, though it is a prefix of it.
  t.deepEqual((await parsePowerShell("Split-Path -Leaf 'C:\\k\\a.txt'")).errors, []);
});

test('the checker refuses what Windows PowerShell 5.1 cannot run, with its line', async (t) => {
  const sevenOnly = [
    '$a = $x ? 1 : 2',
    '$a = $x ?? 1',
    '$a ??= 1',
    '${x}?.Name',
    'Get-Item a && Get-Item b',
    'Get-Item a || Get-Item b',
    "ConvertFrom-Json -InputObject '{}' -AsHashtable",
    "ConvertFrom-Json -InputObject '{}' -Depth 5",
    '1..3 | ForEach-Object -Parallel { $_ }',
    'Get-Error',
    'if ($IsWindows) { 1 }',
    '"`u{2713}"',
  ];
  for (const text of sevenOnly) {
    const { errors } = await parsePowerShell(`$ok = 1\n${text}`);
    t.true(errors.length > 0 && errors.every((e) => e.line === 2), `${text}: ${JSON.stringify(errors)}`);
  }
});

test('the checker can fail: broken snippets are reported with their line', async (t) => {
  const broken = [
    'function Get-PlayX {\n  param($a)\n  if ($a) { 1\n}',
    "$x = 'unterminated",
    '$h = @{ a = }',
    'Get-Item -Path a |',
    '[ordered]@{ ok = $true; value = (1 + ) }',
  ];
  for (const text of broken) {
    const { errors } = await parsePowerShell(text);
    t.true(errors.length > 0, text);
  }
  const { errors } = await parsePowerShell('$ok = 1\n$bad = @(1,\n');
  t.true(
    errors.some((e) => e.line >= 2),
    JSON.stringify(errors),
  );
});

test('the quote check can fail too: an undoubled typographic quote ends the literal early', (t) => {
  const literal = (json: string) => `$playCalls = ConvertFrom-Json -InputObject '${json}'\n`;
  t.deepEqual(callsOf(literal('[{"fn":"Get-PlayX","args":{"s":"a‘‘b’’c\'\'d"}}]')), [
    { fn: 'Get-PlayX', args: { s: "a‘b’c'd" } },
  ]);
  t.throws(() => callsOf(literal('[{"fn":"Get-PlayX","args":{"s":"a‘b"}}]')), { message: /ends early/ });
});

test('the bootstrap and every function definition of the contract parse', async (t) => {
  t.deepEqual((await parsePowerShell(BOOTSTRAP)).errors, []);
  for (const fn of Object.values(PLAY_FUNCTIONS)) {
    const { errors } = await parsePowerShell(fn.definition);
    t.deepEqual(errors, [], `${fn.name}:\n${describeErrors(fn.definition, errors)}`);
  }
});

/** Arguments as the program carries them: secrets revealed (a Secret's toJSON would mask them). */
function revealed(v: unknown): unknown {
  if (isSecret(v)) return v.reveal();
  if (Array.isArray(v)) return v.map(revealed);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, revealed(x)]));
  return v;
}

/** The node the apply test drives: a reboot it scheduled happens at the fake clock's next sleep. */
let busyNode: SimulatedWindowsNode | null = null;

const fakeClock = () => {
  let now = 0;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
      if (busyNode && busyNode.state.boot.phase !== 'up') bootNow(busyNode);
    },
  };
};

const MSU = "C:\\k\\it's kb4549949.msu";
/** A local file for uploadedFile: the hostile text as its bytes. */
const LOCAL = (() => {
  const file = join(mkdtempSync(join(tmpdir(), 'play-ps-syntax-')), 'upload.msu');
  writeFileSync(file, HL);
  return file;
})();
test.after.always(() => rmSync(dirname(LOCAL), { recursive: true, force: true }));

/** A node on which every step's apply runs its whole path (the .msu exists, the services exist, ...). */
function busySeed(s: NodeState): void {
  // Up since long ago: the reboot's new boot time cannot be mistaken for a reading of this boot.
  s.os.lastBootUpTime = '2020-05-08T00:36:41.0000000Z';
  writeFile(s, MSU, Buffer.from('MSCF simulated update package KB4549949\n'));
  s.msuCatalogue["it's kb4549949.msu"] = { fileName: "it's kb4549949.msu", kb: 'KB4549949', revision: 1158 };
  // Docker 19.03.0 past its Containers reboot, so the upgrade to 19.03.5 installs and the pulls find a daemon.
  withDocker(s, { version: '19.03.0', binPath: 'C:\\docker\\dockerd.exe' });
  s.dockerRegistry['repo.mylan.k8s:8888/q1winpause:10.0.17763.973'] = { id: `sha256:${'1'.repeat(64)}`, http: false };
  s.dockerRegistry[`localhost:5000/a__b-c.d/e---f:V_1.x-y@sha256:${'0123456789abcdef'.repeat(4)}`] = {
    id: `sha256:${'2'.repeat(64)}`,
    http: false,
  };
  addService(s, {
    name: 'kubelet',
    binPath: 'C:\\k\\kubelet.exe',
    startMode: 'Auto',
    dependencies: ['docker'],
    state: 'Running',
  });
  writeFile(s, 'C:\\Program Files\\k\\kube-proxy.exe', Buffer.from('simulated kube-proxy.exe\n'));
  writeFile(s, s.nssmPath, Buffer.from('simulated nssm.exe\n'));
  // The NICs at the MACs the netAdapters case names; an HNS network 'old' the hnsNetwork case replaces.
  s.adapters[0]!.macAddress = '00-15-00-00-00-01';
  s.adapters[1]!.macAddress = '00-15-00-00-00-02';
  createNetwork(s, {
    name: 'old',
    type: 'L2Bridge',
    addressPrefix: '10.2.0.0/24',
    gateway: '10.2.0.1',
    adapterName: 'eth0',
  });
}

/** Each factory with option sets: representative values, and hostile ones wherever the options allow free text. */
const CASES: Record<string, (() => AnyStep)[]> = {
  hotfix: [() => windows.hotfix({ kb: 'KB4549949', msuPath: MSU, notApplicable: 'satisfied' })],
  hotfixStage: [
    () => windows.hotfixStage({ kb: 'KB4549949', msuPath: MSU, localMsu: LOCAL, stageDir: `${PATH}-stage` }),
  ],
  // After hotfix: the package it recorded is taken back off.
  hotfixRemoval: [() => windows.hotfixRemoval({ kb: 'KB4549949' })],
  osBuild: [() => windows.osBuild({ version: '10.0.17763', revision: 1158 })],
  // Hostile text cannot reach dockerImage (options.test.ts: a reference with spaces or quotes is refused); these are the grammar's extremes.
  dockerImage: [
    () => windows.dockerImage({ reference: 'repo.mylan.k8s:8888/q1winpause:10.0.17763.973' }),
    () =>
      windows.dockerImage({
        reference: `localhost:5000/a__b-c.d/e---f:V_1.x-y@sha256:${'0123456789abcdef'.repeat(4)}`,
      }),
  ],
  dockerDaemonConfig: [
    () =>
      windows.dockerDaemonConfig({ config: { bridge: 'none', 'insecure-registries': [H], [H]: [HL, 1, null, true] } }),
  ],
  uploadedFile: [() => windows.uploadedFile({ localFile: LOCAL, path: PATH })],
  fileContent: [
    () => windows.fileContent({ path: PATH, content: HL }),
    () => windows.fileContent({ path: 'C:\\k\\secret.yaml', content: new Secret(HL, 'env:X') }),
    () =>
      windows.fileContent({
        path: 'C:\\k\\cni\\config\\l2bridge.conf',
        template: '{"name": "{{ name }}"}',
        vars: { name: 'l2bridge' },
        format: 'json',
      }),
  ],
  hnsNetwork: [
    () =>
      windows.hnsNetwork(
        {
          name: 'l2bridge',
          type: 'L2Bridge',
          addressPrefix: '10.160.11.0/24',
          gateway: '10.160.11.1',
          adapterName: 'eth1',
        },
        fakeClock(),
      ),
    () =>
      windows.hnsNetwork(
        {
          name: 'old',
          type: 'L2Bridge',
          addressPrefix: '10.1.0.0/24',
          gateway: '10.1.0.1',
          adapterName: 'eth0',
          allowReplace: true,
        },
        fakeClock(),
      ),
  ],
  windowsService: [
    () =>
      windows.windowsService({
        name: 'kube-proxy',
        binPath: PROXY_BIN,
        displayName: H,
        startMode: 'auto',
        dependencies: ['docker', 'kubelet'],
        account: "NT AUTHORITY\\NetworkService'$(x)",
        password: new Secret(H, 'env:PW'),
        state: 'running',
      }),
    () =>
      windows.windowsService({ name: 'docker', binPath: 'C:\\docker\\dockerd.exe', state: 'running', restart: true }),
    () => windows.windowsService({ name: 'kube-proxy', binPath: PROXY_BIN, state: 'stopped' }),
  ],
  reboot: [
    () =>
      windows.reboot({ required: false, ifPending: true, timeoutSec: 60, waitForServices: ['docker'] }, fakeClock()),
  ],
  powershell: [
    () =>
      windows.powershell({
        script: 'param($A)\n$A',
        parameters: { A: H },
        unless: "Test-Path -LiteralPath 'C:\\k\\nope'",
      }),
  ],
  command: [() => windows.command({ exe: 'w32tm.exe', args: ['/config', `/manualpeerlist:${H}`], creates: MSU })],
  // The placeholder of a task the inventory did not ask for: it only probes the OS.
  notAsked: [() => windows.notAsked(H)],
};

/** Each step folder's syntax cases (tasks/windows/steps/<step>/cases.ts: SYNTAX_CASES), after the table's. */
for (const { folder, SYNTAX_CASES } of STEP_FOLDER_CASES)
  for (const [factory, makers] of Object.entries(SYNTAX_CASES?.({ text: H, path: PATH }) ?? {})) {
    if (Object.hasOwn(CASES, factory)) throw new Error(`${folder}/cases.ts: ${factory} has syntax cases twice`);
    CASES[factory] = [...makers];
  }

/**
 * A factory makes a step (kind, title, probe, diff, apply), or refuses options that are not there as
 * a step does (StepOptionError); a parser, defineFunction or a rolling gate does neither.
 */
function isFactory(f: unknown): boolean {
  if (typeof f !== 'function') return false;
  try {
    const made: unknown = f();
    // invokeFunction is async: its refusal is not a step either.
    if (made instanceof Promise) made.catch(() => {});
    return (
      typeof made === 'object' &&
      made !== null &&
      ['kind', 'title'].every((k) => typeof (made as Record<string, unknown>)[k] === 'string') &&
      ['probe', 'diff', 'apply'].every((k) => typeof (made as Record<string, unknown>)[k] === 'function')
    );
  } catch (e) {
    return e instanceof StepOptionError;
  }
}

test('the notion of a factory: steps and refused step options, not parsers, gates or function helpers', (t) => {
  t.true(isFactory(windows.dockerEngine));
  t.true(isFactory(windows.hotfix));
  t.true(isFactory(windows.notAsked));
  t.false(isFactory(windows.parseScQc));
  t.false(isFactory(windows.defineFunction));
  t.false(isFactory(windows.invokeFunction));
  t.false(isFactory(windows.PLAY_FUNCTIONS));
});

test('every exported factory has syntax cases', (t) => {
  const factories = Object.entries(windows)
    .filter(([, v]) => isFactory(v))
    .map(([k]) => k)
    .sort();
  t.deepEqual(factories, Object.keys(CASES).sort());
});

test('every program every step sends (probe and apply, hostile values) parses, and its calls literal reads back exactly', async (t) => {
  const { node: busy, n: node } = simulatedNode(t, busySeed);
  busyNode = busy;
  for (const [name, makers] of Object.entries(CASES)) {
    for (const make of makers) {
      const step = make();
      const p = await plan(node, step);
      try {
        await step.apply(node, p.change, p.actual, step.desired);
      } catch (e) {
        if (name !== 'osBuild') throw e; // osBuild's apply only explains: it sends nothing
      }
    }
  }
  t.is(busy.reboots, 1, 'the reboot case rebooted the node');
  // The contract's functions; the escape hatches' own (user-style) functions are not in it.
  const sent = new Set(node.calls.map((c) => c.fn).filter((n) => Object.hasOwn(PLAY_FUNCTIONS, n)));
  t.deepEqual(
    [...sent].sort(),
    Object.keys(PLAY_FUNCTIONS).sort(),
    'every function of the contract was sent by some step',
  );
  for (const text of node.programs) {
    const { errors } = await parsePowerShell(text);
    t.deepEqual(errors, [], describeErrors(text, errors));
  }
  // The literal as PowerShell reads it (typographic quotes included) is the JSON of the call.
  const read = node.programs.flatMap(callsOf);
  t.deepEqual(
    read,
    node.calls.map((c) => ({ fn: c.fn, args: JSON.parse(JSON.stringify(revealed(c.args))) })),
  );
  const hostile = read.filter((c) => JSON.stringify(c.args).includes('‘z’'));
  t.true(hostile.length >= 6, `${hostile.length} calls carried the hostile text`);
  t.true(
    read.some((c) => c.fn === 'Set-PlayService' && c.args.password === H),
    'the secret arrives intact, in the program only',
  );
});

test('a batch of every probe in one program (as a host session sends it) parses', async (t) => {
  const calls = Object.values(CASES)
    .flat()
    .map((make) => (make().probe() as CallProbe<unknown>).call);
  const text = program(calls);
  const { errors } = await parsePowerShell(text);
  t.deepEqual(errors, [], describeErrors(text, errors));
  t.is(callsOf(text).length, calls.length);
});
