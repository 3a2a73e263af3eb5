// A lab host's files: its folder in the lab dir (sshd config, host key, private /tmp /srv /opt /var/tmp,
// a plain bashrc) and its /etc overrides under /etc/netns/NAME. Existing content is kept: a playbook
// may have written to the host's /etc/sysctl.d, and its host key must not change under known_hosts.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { SSH_KEYGEN, run } from '../exec.js';
import { ed25519KeyPair } from './ssh-key.js';
import { ETC_NETNS, type HostPaths } from '../paths.js';
import { sshdConfig } from './sshd.js';
import { writeIfChanged } from '../write.js';
import type { HostPlan } from './topology.js';

const PLAIN_BASHRC = "# ~/.bashrc of a play lab host: plain on purpose (the machine's own is slow to read).\n";

/** /etc entries each host gets its own copy of (mounted by `ip netns exec` where /etc/ENTRY exists). */
export const ETC_ENTRIES: readonly { name: string; kind: 'dir' | 'file'; content?: (host: string) => string }[] = [
  { name: 'sysctl.d', kind: 'dir' },
  { name: 'sysctl.conf', kind: 'file', content: () => '' },
  { name: 'hostname', kind: 'file', content: (host) => `${host}\n` },
  // The host's own name resolves, as on a real host (sudo warns "unable to resolve host" otherwise).
  { name: 'hosts', kind: 'file', content: (host) => `127.0.0.1 localhost\n127.0.1.1 ${host}\n::1 localhost\n` },
  { name: 'keepalived', kind: 'dir' },
];

async function writeIfMissing(path: string, content: string, mode?: number): Promise<void> {
  try {
    await writeFile(path, content, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
}

/** Creates what is missing; returns true when it created /etc/netns/NAME itself. */
export async function ensureHostFiles(host: HostPlan, paths: HostPaths, authorizedKeys: string): Promise<boolean> {
  await mkdir(paths.dir, { recursive: true, mode: 0o700 });
  for (const [dir, source] of Object.entries(paths.privateDirs)) {
    await mkdir(source, { recursive: true });
    // Like the real ones: /tmp and /var/tmp are world-writable and sticky.
    if (dir === '/tmp' || dir === '/var/tmp') await chmod(source, 0o1777);
  }
  await writeIfMissing(paths.bashrc, PLAIN_BASHRC, 0o644);
  writeIfChanged(paths.sshdConfig, sshdConfig(host, paths, authorizedKeys), 0o600);
  if (!existsSync(paths.hostKey)) {
    // Made here, not by ssh-keygen: one process per host is most of the time of a large lab's `up`.
    const key = ed25519KeyPair(`root@${host.name}`);
    rmSync(paths.hostPublicKey, { force: true });
    await writeFile(paths.hostPublicKey, key.publicKey, { mode: 0o644 });
    await writeFile(paths.hostKey, key.privateKey, { mode: 0o600 });
  }

  const created = !existsSync(paths.etc);
  await mkdir(paths.etc, { recursive: true });
  for (const entry of ETC_ENTRIES) {
    const target = `${paths.etc}/${entry.name}`;
    if (entry.kind === 'dir') await mkdir(target, { recursive: true });
    else await writeIfMissing(target, entry.content!(host.name), 0o644);
  }
  return created;
}

/** `ssh-ed25519 AAAA...` from the host's public key file. */
export async function hostPublicKey(paths: HostPaths): Promise<string> {
  const [type, key] = (await readFile(paths.hostPublicKey, 'utf8')).trim().split(/\s+/);
  if (type !== 'ssh-ed25519' || !key) throw new Error(`${paths.hostPublicKey}: not an ed25519 public key`);
  return `${type} ${key}`;
}

/** Removes /etc/netns/NAME when it holds only what the lab puts there (never someone else's files). */
export function removeHostEtc(etcDir: string, force: boolean): void {
  if (!existsSync(etcDir)) return;
  const ours = new Set(ETC_ENTRIES.map((e) => e.name));
  if (force || readdirSync(etcDir).every((e) => ours.has(e))) rmSync(etcDir, { recursive: true, force: true });
}

/** Removes /etc/netns itself when the lab created it and nothing else lives there. */
export function removeEtcNetnsIfEmpty(): void {
  try {
    if (readdirSync(ETC_NETNS).length === 0) rmSync(ETC_NETNS, { recursive: true });
  } catch {
    /* absent or not empty */
  }
}

/** The client key pair; authorized_keys holds its public half. */
export async function ensureClientKey(key: string, publicKey: string, authorizedKeys: string): Promise<void> {
  if (!existsSync(key)) {
    rmSync(publicKey, { force: true });
    await run(SSH_KEYGEN, ['-q', '-t', 'ed25519', '-N', '', '-C', 'play-lab', '-f', key]);
  }
  // Readable by all: sshd reads it as the user logging in, and the lab's become users are not root
  // (a public key is no secret).
  writeIfChanged(authorizedKeys, await readFile(publicKey, 'utf8'), 0o644);
  await chmod(authorizedKeys, 0o644);
}
