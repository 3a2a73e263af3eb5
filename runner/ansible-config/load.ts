// The ansible.cfg and ANSIBLE_* variables of this process, read when a command needs them (I/O at the
// edge of settings.ts, which is pure), and their warnings shown once per process even when several
// parts of a command (the inventory, the vault, a schedule's every run) ask for the settings.
import { homedir } from 'node:os';
import { readInputFile } from '../core/read-input-file.js';
import { locateAnsibleConfig } from './locate.js';
import { type AnsibleConfig, ansibleSettings } from './settings.js';

const CONFIG_FILE = {
  noun: 'an ansible.cfg',
  maxBytes: 4 * 1024 * 1024,
  tooLargeHint: 'it holds settings, not data',
};

/** The settings in effect for `env` and `cwd` (default: this process's); an unreadable or bad file is exit 65. */
export function loadAnsibleConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): AnsibleConfig {
  const home = env.HOME || homedir();
  const located = locateAnsibleConfig(env, cwd, home);
  const file = located.path ? { path: located.path, text: readInputFile(located.path, CONFIG_FILE) } : null;
  return ansibleSettings({ env, file, cwd, home, notes: located.notes });
}

const shown = new Set<string>();

/** Writes each of the config's warnings to `err`, once per process. */
export function showConfigWarnings(config: AnsibleConfig, err: NodeJS.WritableStream): void {
  for (const w of config.warnings) {
    if (shown.has(w)) continue;
    shown.add(w);
    err.write(`play: warning: ${w}\n`);
  }
}
