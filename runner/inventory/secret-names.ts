// Which variables hold a secret, by their name. Such a variable is never taken as literal text, in an
// inventory (where it would sit in a file) or with -e (where ps, shell history and a rolling run's
// journal would keep it): only as `{{ lookup('env', 'NAME') }}`, read from the environment or .env.
// The last word of the name decides (ansible_become_pass, vrrp_auth_pass, api_token, vaultPassword),
// so that names about a secret rather than holding one (secret_name, token_ttl) are left alone.

const SECRET_WORDS: ReadonlySet<string> = new Set(['pass', 'passwd', 'password', 'passphrase', 'secret', 'token']);

/** The name's words, lower case: split at `_`, `-`, `.` and where camelCase starts a word. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_.-]+/)
    .filter(Boolean);
}

/** The environment variable a message suggests for it: vrrp_auth_pass -> VRRP_AUTH_PASS. */
export function envVarFor(name: string): string {
  return words(name).join('_').toUpperCase();
}

/** True when a variable of this name holds a secret (its last word is pass, password, secret, token...). */
export function isSecretName(name: string): boolean {
  return SECRET_WORDS.has(words(name).at(-1) ?? '');
}
