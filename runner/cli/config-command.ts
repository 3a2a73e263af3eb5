// `play config`: the Ansible settings in effect (ansible.cfg and ANSIBLE_* variables, runner/ansible-config/)
// and where each came from, as text or --json. None of these settings is a secret: a vault password
// file's path is shown, never a password.
import type { Argv } from 'yargs';
import { loadAnsibleConfig, showConfigWarnings } from '../ansible-config/load.js';
import { SETTING_KEYS } from '../ansible-config/keys.js';
import type { AnsibleConfig, Setting } from '../ansible-config/settings.js';
import type { Io } from './io.js';

type Shown = { readonly value: unknown; readonly origin: string };

/** Every honoured setting, in the table's order; an unset one is `{ value: null, origin: 'default' }`. */
export function configRows(config: AnsibleConfig): [string, Shown][] {
  const settings = config.settings as unknown as Record<string, Setting<unknown> | undefined>;
  return SETTING_KEYS.map((k) => [k.key, settings[k.key] ?? { value: null, origin: 'default' }]);
}

const shownValue = (v: unknown): string =>
  v === null ? '(not set)' : Array.isArray(v) ? v.join(', ') || '(none)' : String(v).replaceAll('\n', '\\n') || "''";

export function configText(config: AnsibleConfig): string {
  const rows = configRows(config).map(([name, s]) => [name, shownValue(s.value), s.origin] as const);
  const width = (i: 0 | 1) => Math.max(...rows.map((r) => r[i].length));
  const [w0, w1] = [width(0), Math.min(width(1), 60)];
  return (
    `config file: ${config.file ?? 'none'}\n` +
    rows.map(([n, v, o]) => `${n.padEnd(w0)}  ${v.padEnd(w1)}  ${o}\n`).join('')
  );
}

export function configJson(config: AnsibleConfig): string {
  const json = { configFile: config.file, settings: Object.fromEntries(configRows(config)), warnings: config.warnings };
  return `${JSON.stringify(json, null, 2)}\n`;
}

/** `play config [--json]`. */
export function configCommands<T>(y: Argv<T>, io: Io) {
  return y.command(
    'config',
    'show the Ansible settings in effect (ansible.cfg, ANSIBLE_* variables) and where each came from',
    (c) => c.option('json', { type: 'boolean', default: false, describe: 'print them as JSON' }),
    (a) => {
      const config = loadAnsibleConfig();
      if (a.json) io.out.write(configJson(config));
      else {
        showConfigWarnings(config, io.err);
        io.out.write(configText(config));
      }
    },
  );
}
