import { PwshHost } from '../client.mjs';
import { readFileSync } from 'node:fs';
const h = await PwshHost.start({ virtualClock: true });
const scripts = readFileSync('/tmp/pwsh-cmdlets.ps1', 'utf8').split('\n#---\n');
for (const s of scripts) {
  const r = await h.request({ script: s });
  console.log(`>>> ${s.trim()}\n${r.stdout}${r.stderr ? 'STDERR: ' + r.stderr : ''}${r.hostError ?? ''}`);
}
console.log((await h.request({ check: '$x = $a?.b; $y = ${a}?.b' })).check.problems.map((p) => p.construct));
await h.close();
