// Usage (repo root): npx tsx lab/windows/pwsh-host/tools/probe.mjs '[["Get-PlayService",{"name":"W32Time"}]]'  (SHOW=1 prints the bootstrap and programs)
// Runs real play programs (bootstrap + program.ts) through PlayPwshHost with the mock modules, and
// compares each answer with the TypeScript simulator's (lab/windows/model.ts) for the same call.
import { bootstrapCommand, BOOTSTRAP } from '../../../../runner/transport/powershell/bootstrap.ts';
import { program, parseResults } from '../../../../runner/transport/powershell/program.ts';
import { call } from '../../../../tasks/windows/calls.ts';
import { PLAY_FUNCTIONS } from '../../../../tasks/windows/functions.ts';
import { SimulatedWindowsNode } from '../../model.ts';

import { PwshHost } from '../client.mjs';

const line = bootstrapCommand();
const encoded = line.split(' ').pop();
if (process.env.SHOW) {
  console.log('COMMAND LINE:', line.slice(0, 120) + '...', `(${line.length} chars)`);
  console.log('BOOTSTRAP (decoded):\n' + Buffer.from(encoded, 'base64').toString('utf16le'));
}
const M = new URL('../mock/', import.meta.url).pathname;
const host = await PwshHost.start({ modules: [M + 'Services.psm1', M + 'Native.psm1', M + 'System.psm1'], virtualClock: true });
const node = SimulatedWindowsNode.open({ name: 'win1', seed: (st) => {
  const base = { type: 'own', startMode: 'Auto', account: 'LocalSystem', state: 'Running', win32ExitCode: 0, pausable: false };
  st.services['docker'] = { ...base, name: 'docker', displayName: 'Docker Engine', binPath: 'C:\\Program Files\\docker\\dockerd.exe --run-service', dependencies: [], pid: 2000 };
  st.services['kubelet'] = { ...base, name: 'kubelet', displayName: 'kubelet', binPath: 'C:\\k\\kubelet.exe', dependencies: ['docker'], pid: 2004 };
} });

const cases = JSON.parse(process.argv[2] ?? '[["Get-PlayTimeZone",{}],["Get-PlayService",{"name":"W32Time"}]]');
for (const [fn, args] of cases) {
  const calls = [call(PLAY_FUNCTIONS[fn], args)];
  const text = program(calls);
  if (process.env.SHOW) console.log(`PROGRAM for ${fn} (${text.length} chars):\n${text.slice(-700)}`);
  const before = JSON.parse(JSON.stringify(node.state));
  const r = await host.request({ encodedCommand: encoded, stdin: text, model: before });
  let mine;
  try {
    mine = parseResults({ stdout: r.stdout, stderr: r.stderr, code: r.exitCode }, 1, 'win1');
  } catch (e) { mine = { parseError: String(e) }; }
  let ts;
  try { ts = [{ ok: true, value: node.call(fn, args) ?? null }]; } catch (e) { ts = [{ ok: false, error: e.message }]; }
  const same = JSON.stringify(mine) === JSON.stringify(ts);
  console.log(`\n== ${fn} ${JSON.stringify(args)}  exit ${r.exitCode}, ${r.ms} ms, ${same ? 'SAME as the TS simulator' : 'DIFFERS from the TS simulator'}`);
  console.log('pwsh:', JSON.stringify(mine));
  if (!same) console.log('ts:  ', JSON.stringify(ts));
  if (r.stderr) console.log('stderr:', r.stderr);
  if (r.hostError) console.log('hostError:', r.hostError);
  if (process.env.SHOW) console.log('raw stdout:', r.stdout);
}
await host.close();
node.close?.();
void BOOTSTRAP;
