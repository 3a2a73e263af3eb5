// The Ansible settings in effect, pure: from the environment and the text of the one ansible.cfg found
// (locate.ts), each value with its origin. Precedence as Ansible's: an ANSIBLE_* variable, then the
// file, then play's default (command-line flags come on top, where each is used). An empty ANSIBLE_*
// variable counts as unset (Ansible would read '' as a value: an inventory of the working directory).
import { dirname } from 'node:path';
import { InputError } from '../core/errors.js';
import { IniError, type IniFile, iniValue, parseIni } from './ini.js';
import { SETTING_KEYS, type SettingKey, type SettingName } from './keys.js';
import type { Setting } from '../core/setting.js';
import {
  ansibleBoolean,
  ansibleInteger,
  ansibleList,
  ansiblePath,
  ansiblePathList,
  unquote,
  ValueError,
} from './values.js';

/** A value and where it came from: an ANSIBLE_* variable's name, `/dir/ansible.cfg:LINE`, or `default`. */
export type { Setting };

export interface AnsibleSettings {
  readonly inventory?: Setting<readonly string[]>;
  readonly remote_user?: Setting<string>;
  readonly private_key_file?: Setting<string>;
  readonly forks: Setting<number>;
  readonly timeout: Setting<number>;
  readonly host_key_checking: Setting<boolean>;
  readonly become: Setting<boolean>;
  readonly become_user: Setting<string>;
  readonly become_method: Setting<string>;
  readonly vault_password_file?: Setting<string>;
  readonly vault_identity_list: Setting<readonly string[]>;
  readonly ssh_args?: Setting<string>;
  readonly ssh_common_args?: Setting<string>;
}

export interface AnsibleConfig {
  /** The ansible.cfg in effect, or null. */
  readonly file: string | null;
  readonly settings: AnsibleSettings;
  /** One line each: the keys of the file play does not honour (one warning), a skipped ./ansible.cfg. */
  readonly warnings: readonly string[];
}

export interface ConfigInput {
  readonly env: NodeJS.ProcessEnv;
  /** The file locate.ts found, with its text; null: none. */
  readonly file: { readonly path: string; readonly text: string } | null;
  readonly cwd: string;
  readonly home: string;
  /** What locating the file found worth a warning (a world-writable working directory). */
  readonly notes?: readonly string[];
}

type Raw = { readonly text: string; readonly origin: string; readonly baseDir: string };

function rawValue(k: SettingKey, input: ConfigInput, ini: IniFile | undefined): Raw | undefined {
  const fromEnv = input.env[k.env];
  if (fromEnv) return { text: fromEnv, origin: k.env, baseDir: input.cwd };
  const entry = ini && iniValue(ini, k.section, k.key);
  if (!entry || !input.file) return undefined;
  return { text: entry.value, origin: `${input.file.path}:${entry.line}`, baseDir: dirname(input.file.path) };
}

function typed(k: SettingKey, raw: Raw, input: ConfigInput): number | boolean | string | readonly string[] {
  const paths = { baseDir: raw.baseDir, env: input.env, home: input.home };
  switch (k.type) {
    case 'integer': {
      const n = ansibleInteger(raw.text);
      if (n < 1) throw new ValueError(`must be at least 1, got ${n}`);
      return n;
    }
    case 'boolean':
      return ansibleBoolean(raw.text);
    case 'path':
      return ansiblePath(raw.text, paths);
    case 'pathlist':
      return ansiblePathList(raw.text, paths);
    case 'list':
      return ansibleList(raw.text);
    case 'string':
      return unquote(raw.text);
  }
}

function parseFile(file: NonNullable<ConfigInput['file']>): IniFile {
  try {
    return parseIni(file.text);
  } catch (e) {
    if (e instanceof IniError)
      throw new InputError(`${file.path}:${e.line}: ${e.message} (ansible.cfg is read as Ansible reads it)`);
    throw e;
  }
}

/** Every setting play honours, each with its origin; a value Ansible would misread is an error naming it. */
export function ansibleSettings(input: ConfigInput): AnsibleConfig {
  const ini = input.file ? parseFile(input.file) : undefined;
  const settings: Record<string, Setting<unknown>> = {};
  for (const k of SETTING_KEYS as readonly SettingKey[]) {
    const raw = rawValue(k, input, ini);
    if (!raw) {
      if (k.default !== undefined) settings[k.key] = { value: k.default, origin: 'default' };
      continue;
    }
    try {
      settings[k.key] = { value: typed(k, raw, input), origin: raw.origin };
    } catch (e) {
      if (!(e instanceof ValueError)) throw e;
      const where = raw.origin.startsWith('ANSIBLE_') ? raw.origin : `${raw.origin}: ${k.key}`;
      throw new InputError(`${where}: ${e.message}`);
    }
  }
  const unhonoured = ini && input.file ? unhonouredKeys(ini, input.file.path) : [];
  return {
    file: input.file?.path ?? null,
    settings: settings as unknown as AnsibleSettings,
    warnings: [...(input.notes ?? []), ...unhonoured],
  };
}

/** One warning listing every key of the file play does not honour; a known key in another section says where. */
export function unhonouredKeys(ini: IniFile, path: string): string[] {
  const honoured = new Set(SETTING_KEYS.map((k) => `${k.section}.${k.key}`));
  const listed: string[] = [];
  const all: [string, ReadonlyMap<string, { line: number }>][] = [['DEFAULT', ini.defaults], ...ini.sections];
  for (const [section, keys] of all) {
    for (const [key, { line }] of keys) {
      const known = SETTING_KEYS.find((k) => k.key === key);
      // [DEFAULT]'s keys show through in every section: a known one there is read.
      if (honoured.has(`${section}.${key}`) || (section === 'DEFAULT' && known)) continue;
      const hint = known && section !== 'DEFAULT' ? `, read in [${known.section}]` : '';
      listed.push(`[${section}] ${key} (line ${line}${hint})`);
    }
  }
  if (!listed.length) return [];
  return [`${path}: settings play does not honour (ignored): ${listed.join(', ')}`];
}

export type { SettingName };
