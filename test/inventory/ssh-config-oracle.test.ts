// play's reading of ssh_config against OpenSSH's own: for every config of the corpus
// (test/inventory/ssh-config-corpus/, each listing its host aliases in a `# aliases:` line) and every
// alias, what play resolves equals what `ssh -G -F CONFIG ALIAS` prints, key by key. Normalized only
// where the two must differ: ssh prints its defaults where play keeps "not set", prints IdentityFile
// before expanding it (expanded here with ssh's own printed hostname, user and port), and prints
// ProxyJump re-assembled. Without /usr/bin/ssh the test fails: it is the oracle.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { parseProxyJump } from '../../runner/inventory/jump-args.js';
import { SshConfig, type SshHostConfig } from '../../runner/ssh-config/config.js';

const SSH = '/usr/bin/ssh';
const CORPUS = new URL('ssh-config-corpus/', import.meta.url).pathname;
const KEYS = [
  'hostname',
  'user',
  'port',
  'identityfile',
  'identitiesonly',
  'proxyjump',
  'proxycommand',
  'userknownhostsfile',
  'stricthostkeychecking',
  'connecttimeout',
  'serveraliveinterval',
  'serveralivecountmax',
] as const;
const PW = userInfo();
const ENV_VAR = 'PLAY_SSH_CONFIG_TEST';
const ENV_VALUE = '/env/value';
// What ssh -G prints for what no line set (OpenSSH 9's fill_default_options).
const DEFAULT_IDENTITIES = ['id_rsa', 'id_ecdsa', 'id_ecdsa_sk', 'id_ed25519', 'id_ed25519_sk', 'id_xmss', 'id_dsa'];

/** A copy of the corpus with @DIR@ made its own path, every file 0644 (ssh checks included files' modes). */
function corpusCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'play-ssh-config-'));
  cpSync(CORPUS, dir, { recursive: true });
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else writeFileSync(p, readFileSync(p, 'utf8').replaceAll('@DIR@', dir), { mode: 0o644 });
    }
  };
  walk(dir);
  return dir;
}

type Printed = Record<string, string[]>;

/** `ssh -G -F config alias`: the keys compared, each with its values in order. */
function sshG(config: string, alias: string, home: string): Printed {
  const out = execFileSync(SSH, ['-G', '-F', config, alias], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, [ENV_VAR]: ENV_VALUE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed: Printed = {};
  for (const line of out.split('\n')) {
    const sp = line.indexOf(' ');
    const key = line.slice(0, sp);
    if ((KEYS as readonly string[]).includes(key)) (printed[key] ??= []).push(line.slice(sp + 1));
  }
  return printed;
}

/** ssh's printed IdentityFile, expanded as ssh will expand it (~ from the password database, then tokens). */
function expandPrinted(path: string, p: Printed, alias: string): string {
  const host = p.hostname![0]!;
  const user = p.user![0]!;
  const port = p.port![0]!;
  const tokens: Record<string, string> = {
    h: host,
    r: user,
    p: port,
    n: alias,
    u: PW.username,
    d: PW.homedir,
    l: hostname(),
    L: hostname().split('.')[0]!,
    i: String(PW.uid),
    '%': '%',
  };
  const tilde = path.startsWith('~/') ? PW.homedir + path.slice(1) : path;
  const withC = tilde.includes('%C')
    ? tilde.replaceAll(
        '%C',
        execFileSync(
          'sh',
          ['-c', 'printf %s "$1" | sha1sum | cut -c1-40', 'sh', `${hostname()}${host}${port}${user}`],
          {
            encoding: 'utf8',
          },
        ).trim(),
      )
    : tilde;
  return withC.replace(/%(.)/g, (_, k: string) => tokens[k] ?? `%${k}`);
}

/** ProxyJump as ssh -G re-assembles it: `[extra,][user@]host[:port]`, a numeric host in brackets. */
function printedJump(value: string): string {
  if (value.includes(',')) return value;
  const j = parseProxyJump(value);
  if ('none' in j) return 'none';
  const numeric = j.host.includes(':') || /^[0-9.]+$/.test(j.host);
  const host = numeric ? `[${j.host}]` : j.host;
  return `${j.user ? `${j.user}@` : ''}${host}${j.port ? `:${j.port}` : ''}`;
}

const STRICT = { yes: 'true', no: 'false', ask: 'ask', 'accept-new': 'accept-new' } as const;

/** play's resolution, in ssh -G's terms: ssh's defaults where play has "not set". */
function asPrinted(c: SshHostConfig, alias: string, printed: Printed): Printed {
  const home = PW.homedir;
  const jump = c.proxyJump && printedJump(c.proxyJump.value);
  return {
    hostname: [c.hostName?.value ?? alias.toLowerCase()],
    user: [c.user?.value ?? PW.username],
    port: [String(c.port?.value ?? 22)],
    identityfile: c.identityFiles.length
      ? c.identityFiles.map((s) => s.value)
      : DEFAULT_IDENTITIES.map((f) => expandPrinted(`~/.ssh/${f}`, printed, alias)),
    identitiesonly: [c.identitiesOnly?.value ? 'yes' : 'no'],
    ...(jump && jump !== 'none' ? { proxyjump: [jump] } : {}),
    ...(c.proxyCommand && c.proxyCommand.value !== 'none' ? { proxycommand: [c.proxyCommand.value] } : {}),
    userknownhostsfile: [
      (c.userKnownHostsFiles?.value ?? [`${home}/.ssh/known_hosts`, `${home}/.ssh/known_hosts2`]).join(' '),
    ],
    stricthostkeychecking: [STRICT[c.strictHostKeyChecking?.value ?? 'ask']],
    connecttimeout: [String(c.connectTimeout?.value ?? 'none')],
    serveraliveinterval: [String(c.serverAliveInterval?.value ?? 0)],
    serveralivecountmax: [String(c.serverAliveCountMax?.value ?? 3)],
  };
}

test('ssh -G is there to compare with', (t) => {
  t.notThrows(() => execFileSync(SSH, ['-V'], { stdio: 'ignore' }), `${SSH} (openssh-client) is the oracle`);
});

const dir = corpusCopy();
test.after.always(() => rmSync(dir, { recursive: true, force: true }));
const configs = readdirSync(dir).filter(
  (f) => f.endsWith('.conf') && /^# aliases:/m.test(readFileSync(join(dir, f), 'utf8')),
);

for (const name of configs) {
  test(`${name}: every alias resolves as ssh -G resolves it`, (t) => {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    const aliases = /^# aliases: (.*)$/m.exec(text)![1]!.split(' ');
    const homeDir = /^# home: (.*)$/m.exec(text)?.[1];
    const home = homeDir ? join(dir, homeDir) : PW.homedir;
    process.env[ENV_VAR] = ENV_VALUE;
    const config = new SshConfig({ home, files: [] });
    t.true(aliases.length > 0);
    for (const alias of aliases) {
      const printed = sshG(file, alias, home);
      const c = config.lookup(alias, { configFile: file });
      t.deepEqual(c.problems, [], `${name} ${alias}`);
      const expected = {
        ...printed,
        identityfile: printed.identityfile!.map((p) => expandPrinted(p, printed, alias)),
      };
      t.deepEqual(asPrinted(c, alias, printed), expected, `${name} ${alias}`);
    }
  });
}
