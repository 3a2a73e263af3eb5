// The persistent ed25519 host key of a simulated Windows node (a test double): made on first start,
// read on every later one, so known_hosts entries stay valid across restarts of the simulator.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import ssh2 from 'ssh2';

const { utils } = ssh2;

export interface HostKey {
  /** OpenSSH private key text. */
  readonly private: string;
  /** `ssh-ed25519 AAAA...` */
  readonly public: string;
}

function publicLine(privateText: string, file: string): string {
  const parsed = utils.parseKey(privateText);
  if (parsed instanceof Error) throw new Error(`${file}: not a private key ssh2 can read (${parsed.message})`);
  const key = Array.isArray(parsed) ? parsed[0]! : parsed;
  return `${key.type} ${key.getPublicSSH().toString('base64')}`;
}

export function loadOrCreateHostKey(file: string): HostKey {
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8');
    return { private: text, public: publicLine(text, file) };
  }
  // ssh2 drops leading zero bytes of some generated ed25519 keys, which it then cannot parse
  // (mscdex/ssh2#1390): draw again until both halves read back.
  for (;;) {
    const k = utils.generateKeyPairSync('ed25519');
    if (utils.parseKey(k.private) instanceof Error || utils.parseKey(k.public) instanceof Error) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, k.private, { mode: 0o600 });
    writeFileSync(`${file}.pub`, `${k.public}\n`);
    return { private: k.private, public: publicLine(k.private, file) };
  }
}
