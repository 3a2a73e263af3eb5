// An operator's hand edit over SSH on an onboarded Windows node, end to end: the real CLI against the
// shared lab (a simulated Windows node running the full PowerShell, the simulated cluster, the tor
// hosts). Over SSH, as typed into powershell.exe: daemon.json rewritten with Set-Content and docker
// set to Manual with Set-Service. `play drift` reports exactly those two items (onboarding's desired
// state holds both: daemon.json and docker Automatic), and `play onboard-windows` repairs them.
//
// Uses node018, a node of its own (the other tests keep to theirs: docs/lab.md), and holds the tor
// hosts' lock like the other onboarding tests (its gateway VIP is configured on the tor hosts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import test from 'ava';
import { parse as parseDotenv } from 'dotenv';
import { Client } from 'ssh2';
import { encodeCommand, POWERSHELL } from '../../runner/transport/powershell/bootstrap.js';
import { ensureLab, type Lab } from '../helpers/lab.js';
import { play } from '../helpers/play.js';
import { onboardInventory } from './fixtures/onboard-lab.js';
import { holdTorHosts } from './fixtures/lab-locks.js';
import { stopKeepalived } from './fixtures/tor-hosts.js';

const NODE = 'node018';

let lab: Lab;
let dir: string;
let inventory: string;
let state: string;
let env: NodeJS.ProcessEnv;
let release: (() => Promise<void>) | undefined;

/** What an operator types, run as `powershell.exe -EncodedCommand` over SSH with the node's password. */
function operator(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const address = lab.host(NODE).address;
  const password = env.PLAY_LAB_WINDOWS_PASSWORD!;
  return new Promise((done, fail) => {
    const c = new Client();
    c.on('error', fail);
    c.on('ready', () =>
      c.exec(`${POWERSHELL} ${encodeCommand(script)}`, (err, stream) => {
        if (err) return fail(err);
        let stdout = '';
        let stderr = '';
        stream.on('data', (d: Buffer) => (stdout += d));
        stream.stderr.on('data', (d: Buffer) => (stderr += d));
        stream.on('close', (code: number | null) => {
          c.end();
          done({ code, stdout, stderr });
        });
        stream.end();
      }),
    );
    // The lab's own node on its private bridge; play's transport checks host keys, this helper is the operator's terminal.
    c.connect({ host: address, port: 22, username: 'Administrator', password, hostVerifier: () => true });
  });
}

async function mustPlay(args: string[]): Promise<void> {
  const r = await play([...args, '-i', inventory], env);
  if (r.code !== 0)
    throw new Error(`play ${args.join(' ')}: exit ${r.code}: ${r.stdout.slice(-2000)}${r.stderr.slice(-2000)}`);
}

const drift = async () => {
  const r = await play(['drift', '-i', inventory, '--state', state, '--limit', NODE, '--json'], env);
  const run = r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : null;
  const items: string[] = (run?.items ?? [])
    .filter((i: any) => i.host === NODE)
    .map((i: any) => `${i.status} ${i.playbook} ${i.fields.join(',')}`)
    .sort();
  return { ...r, items };
};

test.before(async () => {
  release = await holdTorHosts();
  lab = await ensureLab({ linux: 4, tor: 3, windows: 10, control: 1 });
  dir = mkdtempSync(join(tmpdir(), 'play-hand-edit-'));
  state = join(dir, 'state.db');
  ({ inventory, env } = onboardInventory(lab, dir));
  env = { ...parseDotenv(readFileSync(join(dirname(lab.inventoryPath), 'lab.env'), 'utf8')), ...env };
  await mustPlay(['onboard-windows', '--limit', NODE]);
});

test.after.always(async (t) => {
  try {
    if (lab) await stopKeepalived(lab, t);
    if (dir) rmSync(dir, { recursive: true, force: true });
  } finally {
    await release?.();
  }
});

test.serial('onboarded: no drift on the node', async (t) => {
  const r = await drift();
  t.deepEqual(r.items, [], r.stdout.slice(-2000) + r.stderr);
});

test.serial('a hand edit over SSH is exactly two drift items; onboard-windows repairs them', async (t) => {
  const edit = await operator(
    'Set-Content C:\\ProgramData\\Docker\\config\\daemon.json \'{"bridge":"none","debug":true}\'\n' +
      'Set-Service docker -StartupType Manual\n' +
      "(Get-Service docker).StartType.ToString(); (Get-Content C:\\ProgramData\\Docker\\config\\daemon.json) -join ''",
  );
  t.is(edit.code, 0, edit.stderr);
  t.is(edit.stdout, 'Manual\r\n{"bridge":"none","debug":true}\r\n');

  const found = await drift();
  t.is(found.code, 2, found.stderr);
  t.deepEqual(found.items, ['new onboard-windows config', 'new onboard-windows startMode'], found.stdout.slice(-3000));

  await mustPlay(['onboard-windows', '--limit', NODE]);
  const after = await operator('(Get-Service docker).StartType.ToString()');
  t.is(after.stdout, 'Automatic\r\n');
  const repaired = await drift();
  t.is(repaired.code, 0, repaired.stdout.slice(-2000) + repaired.stderr);
  t.deepEqual(repaired.items, ['resolved onboard-windows config', 'resolved onboard-windows startMode']);
});
