// playbooks/bench.ts's five steps with their paths under a directory of a test's own, and that
// directory converged by hand (as the bench leaves a host): for the tests that count what a
// converged host's probes cost it. The live ip_forward is left as the kernel has it.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { command, directory, file, lineInFile, sysctl } from '../../../tasks/linux/index.js';

/** The bench's steps under `root`; the sysctl wants the value ip_forward has now. */
export function benchSteps(root: string) {
  const forward = liveForward();
  return [
    directory({ path: root, mode: '0755' }),
    file({ path: `${root}/app.conf`, content: '# managed by play\nhost=local\n', mode: '0644' }),
    lineInFile({ path: `${root}/settings.ini`, regexp: '^port=', line: 'port=8080', create: true }),
    command({ command: ['touch', `${root}/initialized`], creates: `${root}/initialized` }),
    sysctl({ key: 'net.ipv4.ip_forward', value: forward, file: `${root}/90-play-bench.conf` }),
  ];
}

export function liveForward(): string {
  return readFileSync('/proc/sys/net/ipv4/ip_forward', 'utf8').trim();
}

/** Makes `root` what the bench's steps want (all but the live value, which already is). */
export function convergeBenchFiles(root: string): void {
  mkdirSync(root);
  chmodSync(root, 0o755);
  const files = {
    'app.conf': '# managed by play\nhost=local\n',
    'settings.ini': 'port=8080\n',
    initialized: '',
    '90-play-bench.conf': `net.ipv4.ip_forward = ${liveForward()}\n`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), text, { mode: 0o644 });
}
