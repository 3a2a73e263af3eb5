// Files and registry values on the simulated Windows node (a test double). sha256 in lowercase hex;
// Set-PlayFile is guarded by the sha256 the caller last saw (null: the file must be absent), like
// the steps' compare-and-swap (PowerShell's -ne: case-insensitive). Registry paths as the steps'
// functions take them: HKLM:\, HKCU:\, HKCR:\ or HKU:\ and a subkey.
import { WindowsError } from '../errors.js';
import { isDirectory, readFile, sha256Hex, writeFile } from '../file-store.js';
import { getValue, setValue } from '../registry-store.js';
import { filePath } from '../win-paths.js';
import type { Handlers } from './types.js';

function decodeBase64(text: string): Buffer {
  if (!/^[A-Za-z0-9+/\r\n]*={0,2}$/.test(text))
    throw new WindowsError(
      'Exception calling "FromBase64String" with "1" argument(s): "The input is not a valid Base-64 string as it contains a non-base 64 character, more than two padding characters, or an illegal character among the padding characters. "',
    );
  return Buffer.from(text, 'base64');
}

function checkRegistryPath(path: string): void {
  if (!/^(HKLM|HKCU|HKCR|HKU):\\(.+)$/.test(path)) throw new WindowsError(`not a registry path: ${path}`);
}

export const fileHandlers = {
  'Get-PlayFile': (node, { path, maxBytes }) => {
    const content = readFile(node.state, path);
    if (content === null) return null;
    return {
      sha256: sha256Hex(content),
      size: content.length,
      contentBase64: content.length <= maxBytes ? content.toString('base64') : null,
    };
  },

  'Set-PlayFile': (node, { path, contentBase64, expectedSha256 }) => {
    const s = node.state;
    const content = decodeBase64(contentBase64);
    if (isDirectory(s, filePath(path))) throw new WindowsError(`${path} exists and is not a file: not replaced`);
    const current = readFile(s, path);
    const found = current === null ? null : sha256Hex(current);
    if ((expectedSha256 ?? '').toLowerCase() !== (found ?? '')) {
      throw new WindowsError(
        `${path} changed since it was probed (sha256 ${found ?? 'absent'}, planned for ${expectedSha256 || 'absent'}): not overwritten`,
      );
    }
    writeFile(s, path, content);
    return { sha256: sha256Hex(content) };
  },

  'Get-PlayRegistryValue': (node, { path, name }) => {
    checkRegistryPath(path);
    const v = getValue(node.state, path, name);
    return v ? { type: v.type, data: Array.isArray(v.data) ? [...v.data] : v.data } : null;
  },

  'Set-PlayRegistryValue': (node, { path, name, type, data }) => {
    checkRegistryPath(path);
    setValue(node.state, path, name, type, data);
    return {};
  },
} satisfies Partial<Handlers>;
