// A Node driver for PlayPwshHost: one persistent host process, requests answered in order.
// (.mjs on purpose: the repository's tsconfig type-checks every .ts under lab/.)
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

export class PwshHost {
  /** modules: paths of mock modules imported into the runspace; virtualClock: Start-Sleep advances Get-Date at once. */
  static async start({ modules = [], virtualClock = false } = {}) {
    const args = [join(here, 'out', 'PlayPwshHost.dll')];
    for (const m of modules) args.push('--module', m);
    if (virtualClock) args.push('--virtual-clock');
    const child = spawn('dotnet', args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const host = new PwshHost(child);
    host.hello = await host.next();
    return host;
  }

  constructor(child) {
    this.child = child;
    this.waiting = [];
    this.lines = [];
    this.exited = new Promise((resolve) => child.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w.reject(new Error(`PlayPwshHost exited (${code})`));
      resolve(code);
    }));
    createInterface({ input: child.stdout }).on('line', (line) => {
      const w = this.waiting.shift();
      if (w) w.resolve(JSON.parse(line)); else this.lines.push(line);
    });
  }

  next() {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(JSON.parse(line));
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  /** request: { script | encodedCommand, stdin?, model?, clock? } or { check }. */
  request(request) {
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    return this.next();
  }

  async close() {
    this.child.stdin.end();
    return this.exited;
  }
}
