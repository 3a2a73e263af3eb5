// Reading and editing one key's assignment in a sysctl.d file (sysctl.d(5)): `key = value`
// lines, whitespace around '=' optional, a key may be written with '/' instead of '.', a
// leading '-' means "ignore errors", lines starting with '#' or ';' are comments, and the last
// assignment of a key wins. Pure.
import { boundedMemo } from '../../runner/core/bounded-memo.js';
import { editLineInFile, type LineEdit } from './line-edit.js';

/** Values are compared with whitespace runs collapsed, as the kernel prints multi-value keys with tabs. */
export function normalizeSysctlValue(value: string): string {
  return value.trim().split(/\s+/).join(' ');
}

export const SYSCTL_KEY = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)+$/;

/** Matches an assignment line of `key` (validated against SYSCTL_KEY, so only '-' needs escaping).
 *  Without flags, so one RegExp serves every caller: every host of a run compiled the same one. */
export const assignmentRegExp: (key: string) => RegExp = boundedMemo((key: string) => {
  const segments = key.split('.').map((s) => s.replace(/-/g, '\\-'));
  return new RegExp(`^\\s*-?\\s*${segments.join('[./]')}\\s*=`);
}, 1024);

/** The value of the last assignment of `key`, normalized; null when the file (or the key) is absent. */
export function persistedValue(text: string | null, key: string): string | null {
  if (text === null) return null;
  const re = assignmentRegExp(key);
  let value: string | null = null;
  for (const line of text.split('\n')) {
    if (re.test(line)) value = normalizeSysctlValue(line.slice(line.indexOf('=') + 1));
  }
  return value;
}

/** Replaces the last assignment of `key` by `key = value`, or appends one. */
export function setPersisted(text: string | null, key: string, value: string): LineEdit {
  return editLineInFile(text, `${key} = ${value}`, assignmentRegExp(key));
}
