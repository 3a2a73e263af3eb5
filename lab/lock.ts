// One lab change at a time, machine-wide (namespace names are global): ava runs test files in several
// processes and each may bring the lab up. The lock is a kernel flock(2) held by a `flock FILE cat`
// child: the kernel drops it when that child exits, and the child exits when our end of its stdin
// closes, which includes our own death. So a lock is never stale, and there is nothing to clean up.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { FLOCK } from './exec.js';

export interface LockOptions {
  /** Give up after this long (default 10 minutes: a 150-host lab takes a while to build). */
  timeoutMs?: number;
}

export async function withLabLock<T>(file: string, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquire(file, options.timeoutMs ?? 600_000);
  try {
    return await fn();
  } finally {
    await release();
  }
}

function acquire(file: string, timeoutMs: number): Promise<() => Promise<void>> {
  mkdirSync(dirname(file), { recursive: true });
  // `flock` waits for the lock, then runs cat: our probe line coming back means the lock is ours.
  const child = spawn(FLOCK, ['--exclusive', '--timeout', String(Math.ceil(timeoutMs / 1000)), file, 'cat'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((res) => child.once('close', () => res()));
  return new Promise((resolveLock, reject) => {
    let out = '';
    let err = '';
    let locked = false;
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
    });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!locked && out.includes('locked\n')) {
        locked = true;
        // For people wondering who holds it; the flock, not this text, is the lock.
        try {
          writeFileSync(file, `${process.pid} ${process.argv.slice(1).join(' ')}\n`);
        } catch {
          /* informative only */
        }
        resolveLock(async () => {
          child.stdin.end();
          await exited;
        });
      }
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (!locked) {
        reject(
          new Error(
            code === 1
              ? `another play lab command has held ${file} for ${Math.round(timeoutMs / 1000)} s; see the pid in that file`
              : `flock ${file} failed (exit ${code}): ${err.trim()}`,
          ),
        );
      }
    });
    child.stdin.write('locked\n');
  });
}
