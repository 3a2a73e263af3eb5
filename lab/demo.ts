// `npm run demo`: brings up a small lab and shows play's cycle on it — plan (check), apply, and a
// second run that changes nothing — with the real CLI, as a newcomer would type it.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { labUp } from './lab.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function play(args: string[]): number {
  console.log(`\n$ play ${args.join(' ')}`);
  const r = spawnSync(process.execPath, [resolve(root, 'bin/play.mjs'), ...args], { cwd: root, stdio: 'inherit' });
  return r.status ?? 1;
}

const lab = await labUp({ linux: 3 });
console.log(`lab up: ${lab.hosts.length} hosts (the demo uses linux1-linux3)\ninventory: ${lab.inventoryPath}`);
const inv = ['-i', lab.inventoryPath, '-l', 'linux[0:2]', '--no-live'];
const codes = [play(['bench', ...inv, '--check']), play(['bench', ...inv]), play(['bench', ...inv])];
console.log(`
What happened:
  1. --check probed every host and planned the changes without making them (exit ${codes[0]}: ${codes[0] === 2 ? '2 means "would change"' : 'nothing to change: an earlier demo already converged this lab'}).
  2. the first run applied exactly those changes and probed again to prove them (exit ${codes[1]}).
  3. the second run found nothing to do: every step ok, 0 changed (exit ${codes[2]}).
Try: play hosts 'linux:!linux2' -i ${lab.inventoryPath}   |   play graph bench   |   play lab down`);
process.exit(codes[1] === 0 && codes[2] === 0 ? 0 : 1);
