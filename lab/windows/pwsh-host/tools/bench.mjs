import { PwshHost } from '../client.mjs';
import { readFileSync } from 'node:fs';
const M = new URL('../mock/', import.meta.url).pathname;
const t0 = performance.now();
const h = await PwshHost.start({ modules: [M + 'Services.psm1', M + 'Native.psm1', M + 'System.psm1'], virtualClock: true });
const startMs = performance.now() - t0;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
async function bench(name, req, n) {
  for (let i = 0; i < 20; i++) await h.request(req);
  const rt = [], inHost = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); const r = await h.request(req); rt.push(performance.now() - t); inHost.push(r.ms); if (r.exitCode !== 0 || r.hostError) throw new Error(JSON.stringify(r)); }
  console.log(`${name}: median round trip ${median(rt).toFixed(2)} ms (in host ${median(inHost).toFixed(2)} ms), p90 ${[...rt].sort((a,b)=>a-b)[Math.floor(n*0.9)].toFixed(2)} ms, n=${n}`);
}
console.log(`host start to ready: ${startMs.toFixed(0)} ms`);
await bench('small script  (1+1)', { script: '1+1' }, 200);
await bench('small script  ConvertTo-Json', { script: "[Console]::Out.Write((ConvertTo-Json -Compress -InputObject @{a=1;b=@(1,2)}))" }, 200);
const fixtures = JSON.parse(readFileSync('/tmp/pwsh-bench-fixtures.json', 'utf8'));
for (const f of fixtures) await bench(f.name, f.request, 100);
await h.close();
