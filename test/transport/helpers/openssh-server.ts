// A real OpenSSH sshd on 127.0.0.1 with its own config, host key and authorized_keys, for tests
// that check our client against the server it will meet. Needs root and /usr/sbin/sshd; tests
// skip otherwise. sshd runs in the foreground (-D) as our child and is stopped by its pid.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const SSHD = '/usr/sbin/sshd';

export function canRunSshd(): boolean {
  return existsSync(SSHD) && process.getuid?.() === 0;
}

export interface OpensshServer {
  readonly port: number;
  readonly hostPublicKey: string;
  readonly logFile: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Starts sshd in `dir`; `extra` lines go into sshd_config (e.g. `MaxStartups 2:100:2`). */
export async function startOpenssh(
  dir: string,
  authorizedKey: string,
  extra: readonly string[] = [],
): Promise<OpensshServer> {
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const hostKey = join(dir, 'ssh_host_ed25519_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  const authorized = join(dir, 'authorized_keys');
  writeFileSync(authorized, `${authorizedKey}\n`, { mode: 0o600 });
  const port = await freePort();
  const logFile = join(dir, 'sshd.log');
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `ListenAddress 127.0.0.1:${port}`,
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${authorized}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      'UsePAM no',
      'StrictModes no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      ...extra,
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(SSHD, ['-D', '-f', config, '-E', logFile], { stdio: 'ignore' });
  // Ready when it accepts TCP connections.
  for (let i = 0; i < 200; i++) {
    if (existsSync(logFile) && /Server listening/.test(readFileSync(logFile, 'utf8'))) break;
    if (child.exitCode !== null) throw new Error(`sshd exited: ${readFileSync(logFile, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    port,
    hostPublicKey: readFileSync(`${hostKey}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' '),
    logFile,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
