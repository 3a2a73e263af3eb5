// Debian's sqlite3 on a state store file: the oracle for what is in it, beside play's own reading.
// A missing sqlite3 fails the test that calls it, never skips it (scripts/install-system.sh installs it).
import { execFileSync } from 'node:child_process';

export function sqlite3(file: string, sql: string): string {
  return execFileSync('sqlite3', [file, sql], { encoding: 'utf8' }).trim();
}
