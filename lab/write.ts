// Writing files that others read while the lab is up: sshd reads authorized_keys at every login, and
// ssh and Ansible read known_hosts and the inventory whenever a test connects. A plain rewrite
// truncates first, so a reader at that moment sees an empty file ("Permission denied (publickey)").
// So: leave identical content alone, and replace changed content by rename (readers see old or new).
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** Writes `content` unless the file already holds exactly that; returns whether it wrote. */
export function writeIfChanged(path: string, content: string, mode = 0o644): boolean {
  try {
    if (readFileSync(path, 'utf8') === content) return false;
  } catch {
    /* absent */
  }
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode });
  renameSync(tmp, path);
  return true;
}
