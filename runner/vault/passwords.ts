// The vault passwords a command is given, read once before anything is loaded, in ansible's order
// (CLI.build_vault_ids and setup_vault_secrets): each --vault-id [LABEL@]SOURCE as given, then each
// --vault-password-file and ANSIBLE_VAULT_PASSWORD_FILE (labelled `default`), then --ask-vault-pass.
// A SOURCE is `prompt` (asked on the terminal) or a file: its content with surrounding whitespace
// stripped (ansible reads the whole file, which for the usual one-line file is its first line), or,
// when the file is executable, what it prints on stdout (a `NAME-client` script is asked for its
// label with `--vault-id LABEL`, as ansible's client scripts are). Ansible skips a password file it
// cannot read when another password was found; play stops and names it.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { basename, extname, resolve } from 'node:path';
import { InputError, UsageError } from '../core/errors.js';
import { InputFileError, type InputFileKind, inputPathKind, readInputFile } from '../core/read-input-file.js';
import { Secret } from '../core/secret.js';
import { configuredVaultSources } from '../ansible-config/vault-settings.js';
import { DEFAULT_VAULT_ID, VaultKeyring, type VaultPassword } from './keyring.js';
import { promptHidden } from '../core/prompt.js';

/** The command line's vault options (and the environment's ANSIBLE_VAULT_PASSWORD_FILE). */
export interface VaultFlags {
  /** --vault-id, in order: `[LABEL@]FILE` or `[LABEL@]prompt`. */
  readonly vaultIds?: readonly string[];
  /** --vault-password-file, in order. */
  readonly passwordFiles?: readonly string[];
  /** --ask-vault-pass. */
  readonly ask?: boolean;
}

const strings = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(String).filter((x) => x !== '');

/** The vault options as yargs gives them: a string, or several when the option is repeated. */
export function vaultFlagsOf(args: object): VaultFlags {
  const a = args as { vaultId?: unknown; vaultPasswordFile?: unknown; askVaultPass?: unknown };
  return {
    vaultIds: strings(a.vaultId),
    passwordFiles: strings(a.vaultPasswordFile),
    ask: a.askVaultPass === true,
  };
}

const PASSWORD_FILE: InputFileKind = {
  noun: 'a vault password file',
  maxBytes: 64 * 1024,
  tooLargeHint: 'it holds the password alone',
};

/** What to do for one password: where it comes from, its label, and how messages name it. */
interface Source {
  readonly id: string;
  readonly value: string;
  readonly from: string;
  readonly prompt?: string;
}

/** ansible's split_vault_id: `LABEL@SOURCE`, or SOURCE alone. */
function vaultIdSource(slug: string): Source {
  const at = slug.indexOf('@');
  const label = at < 0 ? '' : slug.slice(0, at);
  const value = at < 0 ? slug : slug.slice(at + 1);
  const id = label || DEFAULT_VAULT_ID;
  if (!value) throw new UsageError(`--vault-id ${slug}: expected [LABEL@]FILE or [LABEL@]prompt`);
  const isPrompt = value === 'prompt' || value === 'prompt_ask_vault_pass';
  return {
    id,
    value,
    from: `--vault-id ${slug}`,
    ...(isPrompt ? { prompt: value === 'prompt' ? `Vault password (${id}): ` : 'Vault password: ' } : {}),
  };
}

function sources(flags: VaultFlags, env: NodeJS.ProcessEnv): Source[] {
  // ANSIBLE_VAULT_PASSWORD_FILE, ansible.cfg's vault_password_file and vault_identity_list: one source.
  const configured = configuredVaultSources(env);
  const files = [
    ...(flags.passwordFiles ?? []).map((f) => ({ value: f, from: `--vault-password-file ${f}` })),
    ...configured.passwordFiles,
  ];
  return [
    ...configured.vaultIds.map((v) => ({ ...vaultIdSource(v.slug), from: v.from })),
    ...(flags.vaultIds ?? []).map(vaultIdSource),
    ...files.map((f) => ({ id: DEFAULT_VAULT_ID, ...f })),
    ...(flags.ask ? [{ id: DEFAULT_VAULT_ID, value: 'prompt', from: 'the prompt', prompt: 'Vault password: ' }] : []),
  ];
}

/** Reads every password the flags (and `env`) give; none given is an empty keyring. */
export async function openVault(
  flags: VaultFlags = {},
  env: NodeJS.ProcessEnv = process.env,
  ask: (question: string, flag: string) => Promise<string> = askVaultPassword,
): Promise<VaultKeyring> {
  const passwords: VaultPassword[] = [];
  for (const s of sources(flags, env)) {
    const text = s.prompt ? await ask(s.prompt, s.from) : await fromFile(s);
    if (!text) throw new InputError(`${s.from}: the vault password is empty`);
    passwords.push({ id: s.id, password: new Secret(text, `vault-password:${s.from}`), from: s.from });
  }
  return new VaultKeyring(passwords);
}

const askVaultPassword = (question: string, flag: string) =>
  promptHidden(question, {
    flag,
    what: 'vault password',
    instead: 'give the password with --vault-password-file FILE',
  });

/** Python's bytes.strip(): ASCII whitespace only (JavaScript's trim() also takes Unicode spaces). */
const PYTHON_STRIP = /^[ \t\n\r\v\f]+|[ \t\n\r\v\f]+$/g;

const expandHome = (path: string) => (path === '~' || path.startsWith('~/') ? homedir() + path.slice(1) : path);

async function fromFile(s: Source): Promise<string> {
  const path = resolve(expandHome(s.value));
  const kind = inputPathKind(path);
  if (kind === 'missing') throw new UsageError(`${s.from}: no such file`);
  if (kind === 'directory') throw new UsageError(`${s.from}: is a directory, expected a vault password file`);
  if (isExecutable(path)) return (await runScript(path, s)).replace(/^[\r\n]+|[\r\n]+$/g, '');
  try {
    return readInputFile(path, PASSWORD_FILE).replace(PYTHON_STRIP, '');
  } catch (e) {
    if (e instanceof InputFileError) throw new InputError(`${s.from}: ${e.detail}`);
    throw e;
  }
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A password script's stdout; stdin and (for a plain script) stderr are the terminal's, so it may ask. */
function runScript(path: string, s: Source): Promise<string> {
  const client = basename(path, extname(path)).endsWith('-client');
  const args = client ? ['--vault-id', s.id] : [];
  return new Promise((done, fail) => {
    const child = spawn(path, args, { stdio: ['inherit', 'pipe', client ? 'pipe' : 'inherit'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout!.on('data', (d: Buffer) => out.push(d));
    child.stderr?.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', (e) =>
      fail(
        new InputError(
          `${s.from}: cannot run the password script (${e.message}): remove its executable bit if it is a file`,
        ),
      ),
    );
    child.on('close', (code, signal) => {
      if (code === 0) return done(Buffer.concat(out).toString('utf8'));
      const why =
        client && code === 2
          ? `has no password for vault id ${s.id}`
          : `exited with ${signal ?? `status ${code}`}${err.trim() ? ` (${err.trim().split('\n')[0]})` : ''}`;
      fail(new InputError(`${s.from}: the password script ${why}`));
    });
  });
}
