// `play --version`: play's version, Node's, the ansible.cfg in effect and the inventory a command would
// use with where it was named. Answered before yargs parses the command line (which wants a playbook or
// a command), and never an error: a problem with the config or the inventory is shown in its line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'yargs/helpers';
import { loadAnsibleConfig } from '../ansible-config/load.js';
import { PlayError } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/play-root.js';
import { inventoryLine, inventorySource } from './inventory-path.js';

const problem = (e: unknown): string => {
  if (e instanceof PlayError) return e.message;
  throw e;
};

export function versionText(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
  const lines = [`play ${pkg.version}`, `node ${process.version}`];
  let configFile: string;
  try {
    configFile = loadAnsibleConfig(env).file ?? 'none';
  } catch (e) {
    configFile = `unusable: ${problem(e)}`;
  }
  lines.push(`config file: ${configFile}`);
  const args = Parser(argv.slice(), { string: ['inventory'], alias: { inventory: ['i'] } });
  try {
    const source = inventorySource(args.inventory as string | string[] | undefined, { env, loadEnv: false });
    lines.push(inventoryLine(source).trimEnd());
  } catch (e) {
    lines.push(`inventory: none (${problem(e)})`);
  }
  return `${lines.join('\n')}\n`;
}
